import { resolve } from "node:path";
import type { InlineInput } from "./inline-input/inline-input.ts";

/**
 * The typed options of a run or a validation, checked at the edge so that the commands downstream
 * never see a malformed value. Every path is absolute, resolved against the cwd of the invocation.
 */
export interface CliOptions {
  /** The hank file or directory (absolute), `-` for stdin, or a remote URL; from a positional or `--config`. */
  readonly hankPath: string;
  /** `default` when nothing named the hank and `hank.json` in the cwd was assumed. */
  readonly hankFrom: "argument" | "default";
  /** The data source, from a positional or `--data`. */
  readonly dataPath?: string;
  readonly model?: string;
  readonly execution?: string;
  readonly startNew: boolean;
  readonly force: boolean;
  readonly yes: boolean;
  readonly headless: boolean;
  /** `--json`: the result as one JSON object on stdout (a run is headless then). */
  readonly json: boolean;
  /** `--open`: print the run's web page address and open it in a browser. */
  readonly open?: boolean;
  /** Run-wide ceiling in US dollars, > 0. */
  readonly maxCost?: number;
  /** Run-wide wall-clock ceiling in seconds, > 0. */
  readonly maxTime?: number;
  readonly output?: string;
  readonly overwriteOutput: boolean;
  readonly copy: boolean;
  /** `--durable`: fsync the journal at every codon boundary; absent: the environment decides. */
  readonly durable?: boolean;
  /** `--otel`: trace the run even when no `OTEL_*` variable asks for it. */
  readonly otel?: boolean;
  readonly ignoreRigFailures: boolean;
  /** Harness idle timeout in whole seconds, 1-1800. */
  readonly shimIdleTimeout?: number;
  /** WebSocket server port, 0-65535 (0: any free port). */
  readonly port?: number;
  /** WebSocket server bind address (default loopback). */
  readonly host?: string;
  /** Token WebSocket clients must present. */
  readonly token?: string;
  /** `-i <text>` or `-` (stdin): the data, stored in the inputs cache before the run. */
  readonly inlineInput?: InlineInput;
  /** `--no-wipe`: with `--start-new --force`, keep the existing agentRoot/. */
  readonly noWipe?: boolean;
  /** `--no-autostart`: the run opens paused and waits for a client's codon.next / codon.start. */
  readonly noAutostart?: boolean;
  /** `--idle-timeout`: close WebSocket clients silent this many seconds (1-255; 0 is never, left out). */
  readonly idleTimeout?: number;
}

export type OptionsRead =
  | { readonly ok: true; readonly options: CliOptions }
  | { readonly ok: false; readonly message: string };

/** What commander hands back: option values by attribute name. */
export type RawOptions = Readonly<Record<string, unknown>>;

export interface PathsFromArgs {
  readonly hankPath: string;
  readonly hankFrom: "argument" | "default";
  readonly dataPath?: string;
}

export const SHIM_IDLE_TIMEOUT_MAX_SECONDS = 1800;

export function readCliOptions(
  raw: RawOptions,
  paths: PathsFromArgs,
  cwd: string,
  inlineInput?: InlineInput,
): OptionsRead {
  const maxCost = positiveNumber(
    raw,
    "maxCost",
    "--max-cost",
    "a positive number of US dollars, e.g. --max-cost 5",
  );
  if (typeof maxCost === "string") return { ok: false, message: maxCost };
  const maxTime = positiveNumber(
    raw,
    "maxTime",
    "--max-time",
    "a positive number of seconds, e.g. --max-time 3600",
  );
  if (typeof maxTime === "string") return { ok: false, message: maxTime };
  const shimIdleTimeout = idleSeconds(raw);
  if (typeof shimIdleTimeout === "string") return { ok: false, message: shimIdleTimeout };
  const server = serverOptions(raw);
  if (typeof server === "string") return { ok: false, message: server };
  const idleTimeout = idleTimeoutSeconds(raw);
  if (typeof idleTimeout === "string") return { ok: false, message: idleTimeout };
  const options: CliOptions = {
    ...paths,
    ...optional("model", text(raw, "model")),
    ...optional("execution", absolute(text(raw, "execution"), cwd)),
    ...optional("output", absolute(text(raw, "output"), cwd)),
    ...optional("maxCost", maxCost),
    ...optional("maxTime", maxTime),
    ...optional("shimIdleTimeout", shimIdleTimeout),
    ...server,
    startNew: raw.startNew === true,
    force: raw.force === true,
    yes: raw.yes === true,
    headless: raw.headless === true || raw.json === true,
    json: raw.json === true,
    ...optional("open", raw.open === true ? true : undefined),
    overwriteOutput: raw.overwriteOutput === true,
    copy: raw.copy === true,
    ...optional("durable", raw.durable === true ? true : undefined),
    ...optional("otel", raw.otel === true ? true : undefined),
    ignoreRigFailures: raw.ignoreRigFailures === true,
    ...optional("inlineInput", inlineInput),
    ...optional("noWipe", raw.wipe === false ? true : undefined),
    ...optional("noAutostart", raw.autostart === false ? true : undefined),
    ...optional("idleTimeout", idleTimeout === 0 ? undefined : idleTimeout),
  };
  return { ok: true, options };
}

/** Spreads `{key: value}` only when the value is present (exactOptionalPropertyTypes). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

function absolute(path: string | undefined, cwd: string): string | undefined {
  return path === undefined ? undefined : resolve(cwd, path);
}

function text(raw: RawOptions, key: string): string | undefined {
  const value = raw[key];
  return typeof value === "string" ? value : undefined;
}

const DECIMAL = /^\d+(\.\d+)?$|^\.\d+$/;

function positiveNumber(
  raw: RawOptions,
  key: string,
  flag: string,
  expected: string,
): number | undefined | string {
  const value = text(raw, key);
  if (value === undefined) return undefined;
  const number = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (Number.isFinite(number) && number > 0) return number;
  return `Invalid ${flag} value: '${value}'. Expected ${expected}.`;
}

function idleSeconds(raw: RawOptions): number | undefined | string {
  const value = text(raw, "shimIdleTimeout");
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (number >= 1 && number <= SHIM_IDLE_TIMEOUT_MAX_SECONDS) return number;
  return `Invalid --shim-idle-timeout value: '${value}'. Expected a whole number of seconds from 1 to ${SHIM_IDLE_TIMEOUT_MAX_SECONDS}.`;
}

/** `--idle-timeout`: whole seconds 0-255, as the reference validates it. */
function idleTimeoutSeconds(raw: RawOptions): number | undefined | string {
  const value = text(raw, "idleTimeout");
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (number >= 0 && number <= 255) return number;
  return `Invalid --idle-timeout value: '${value}'. Expected a whole number of seconds from 0 to 255 (0: never).`;
}

/** The WebSocket server flags: a port 0-65535, a bind address, a token of 16+ characters (never echoed). */
export function serverOptions(raw: RawOptions): Pick<CliOptions, "port" | "host" | "token"> | string {
  const port = text(raw, "port");
  const portNumber = port !== undefined && /^\d{1,5}$/.test(port) ? Number(port) : Number.NaN;
  if (port !== undefined && !(portNumber >= 0 && portNumber <= 65_535)) {
    return `Invalid --port value: '${port}'. Expected a whole number from 0 to 65535 (0: any free port).`;
  }
  const host = text(raw, "host");
  if (host !== undefined && host.trim() === "")
    return "Invalid --host value: expected an address such as 127.0.0.1.";
  const token = text(raw, "token");
  if (token !== undefined && token.length < 16)
    return "Invalid --token value: a token needs at least 16 characters.";
  return {
    ...optional("port", port === undefined ? undefined : portNumber),
    ...optional("host", host),
    ...optional("token", token),
  };
}
