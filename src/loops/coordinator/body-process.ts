import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { bwrapArgv, type SandboxView } from "../sandbox/bwrap.ts";
import type { ChildBodyRequest } from "./body-child.ts";
import { killGroup } from "./run-argv.ts";
import type { BodyReport, BodyRequest } from "./run-body.ts";

/**
 * Runs a generation's body in bubblewrap: the runner itself runs in a child process (`body-child`)
 * inside the sandbox, so the whole process tree of the body (the runner, its agents, every command
 * they start) sees only what the view binds. The child reports codon activity and its final report
 * as JSON lines; a stop (the generation's signal) is sent on its stdin, and its process group is
 * ended if it has not finished a grace period later. Recorded with `onChild`, so a next driver ends
 * it too.
 */
const STOP_GRACE_MS = 10_000;

/** Where the child's entry is: beside this file (sources, dist), or from the bundled CLI in dist/cli. */
export function bodyChildEntry(): string | undefined {
  const candidates = [
    new URL(import.meta.url.endsWith(".ts") ? "./body-child.ts" : "./body-child.js", import.meta.url),
    new URL("../loops/coordinator/body-child.js", import.meta.url),
  ].map((url) => fileURLToPath(url));
  return candidates.find((path) => existsSync(path));
}

/**
 * The flags a child Node needs to load the entry as this process loads modules (`--import tsx` when
 * run from sources), each module named absolutely: the child starts in the execution directory.
 */
function loaderFlags(): string[] {
  const flags: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? "";
    if (["--import", "--require", "--loader"].includes(flag))
      flags.push(flag, absoluteModule(argv[++i] ?? ""));
    else if (flag === "--conditions") flags.push(flag, argv[++i] ?? "");
    else if (flag.startsWith("--experimental") || flag.startsWith("--conditions=")) flags.push(flag);
  }
  return flags;
}

/**
 * What the child Node needs to read: its own binary's directory, this package (the entry's nearest
 * `package.json`), and the `node_modules` its dependencies and loaders resolve from.
 */
function runtimeDirs(entry: string, flags: readonly string[]): string[] {
  const modules = [import.meta.resolve("zod"), ...flags.filter((flag) => flag.startsWith("file:"))].map(
    (url) => fileURLToPath(url),
  );
  return [
    dirname(process.execPath),
    packageRootOf(entry),
    ...modules.map((path) => nodeModulesOf(path) ?? dirname(path)),
  ];
}

function packageRootOf(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, "package.json"))) return dir;
  return dirname(file);
}

/** `/p/node_modules/zod/index.js` -> `/p/node_modules` (the outermost, where hoisted packages are). */
function nodeModulesOf(path: string): string | undefined {
  const at = path.indexOf(`${sep}node_modules${sep}`);
  return at < 0 ? undefined : path.slice(0, at + `${sep}node_modules`.length);
}

function absoluteModule(specifier: string): string {
  if (specifier.startsWith(".")) return resolve(process.cwd(), specifier);
  if (isAbsolute(specifier) || specifier.startsWith("file:")) return specifier;
  try {
    return import.meta.resolve(specifier);
  } catch {
    return specifier;
  }
}

export async function runBodyInSandbox(
  request: BodyRequest,
  view: SandboxView,
  onChild?: (pgid: number) => void,
): Promise<BodyReport> {
  const entry = bodyChildEntry();
  if (entry === undefined)
    return failed("the sandboxed body's entry (body-child.js) is missing from this installation");
  for (const dir of view.writable) mkdirSync(dir, { recursive: true });
  const flags = loaderFlags();
  // The runtime itself stays visible wherever it is installed (under /tmp, under a hidden home).
  const runtime = { ...view, readOnly: [...view.readOnly, ...runtimeDirs(entry, flags)] };
  const argv = bwrapArgv(runtime, [process.execPath, ...flags, entry]);
  const child = spawn(argv[0] ?? "", argv.slice(1), {
    env: request.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (child.pid !== undefined) onChild?.(child.pid);
  const input: ChildBodyRequest = {
    contract: request.contract,
    runDir: request.runDir,
    generation: request.generation,
    env: request.env,
    tokenAllowance: request.tokenAllowance ?? null,
  };
  child.stdin.on("error", () => undefined);
  child.stdin.write(`${JSON.stringify(input)}\n`);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString("utf8");
  });
  const onAbort = () => {
    child.stdin.write(`${JSON.stringify({ stop: true })}\n`);
    setTimeout(() => killGroup(child.pid), STOP_GRACE_MS).unref();
  };
  request.signal.addEventListener("abort", onAbort, { once: true });
  let report: BodyReport | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    const message = parseLine(line);
    if (message?.activity === "started") request.activity?.started();
    if (message?.activity === "ended") request.activity?.ended();
    if (message?.report !== undefined) report = message.report;
  }
  await new Promise((resolve) =>
    child.exitCode !== null ? resolve(undefined) : child.once("close", resolve),
  );
  request.signal.removeEventListener("abort", onAbort);
  child.stdin.end();
  return report ?? failed(`the sandboxed body ended without a report: ${errorOf(stderr)}`);
}

interface ChildLine {
  readonly activity?: "started" | "ended";
  readonly report?: BodyReport;
}

function parseLine(line: string): ChildLine | undefined {
  try {
    return JSON.parse(line) as ChildLine;
  } catch {
    return undefined;
  }
}

/** The line of a crashed Node's stderr that says what went wrong (not its stack, not its version). */
function errorOf(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim());
  const error = lines.find((l) => /^([A-Za-z]*Error|Error)\b/.test(l));
  return (error ?? lines.filter((l) => l !== "").at(-1) ?? "").slice(0, 500);
}

function failed(message: string): BodyReport {
  return {
    end: { kind: "error", message, unrecoverable: true },
    layers: [],
    tokens: 0,
    costUsd: 0,
    bodyRunId: null,
    workspaceTree: null,
    resumed: false,
  };
}
