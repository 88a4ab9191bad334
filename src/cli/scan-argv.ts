import { type FlagSpec, findFlag } from "./flags.ts";

/**
 * The argv pre-scan. It gives the reference runtime's exact parser messages (commander's own texts
 * differ) and rewrites the arguments into one canonical form for commander: every flag by its long
 * name, every value as its own token, positionals after a `--` when they could look like flags.
 */
export type ArgvScan =
  | { readonly ok: true; readonly args: readonly string[]; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string };

interface ScanState {
  readonly args: string[];
  readonly positionals: string[];
  readonly warnings: string[];
}

export function scanArgv(argv: readonly string[]): ArgvScan {
  const state: ScanState = { args: [], positionals: [], warnings: [] };
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] ?? "";
    if (token === "--") {
      state.positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!isFlagLike(token)) {
      state.positionals.push(token);
      continue;
    }
    const step = scanFlag(token, argv[index + 1], state);
    if (typeof step === "string") return { ok: false, message: step };
    index += step;
  }
  const args = state.positionals.length > 0 ? [...state.args, "--", ...state.positionals] : state.args;
  return { ok: true, args, warnings: state.warnings };
}

/** `-` alone is a positional (stdin); so is anything not starting with a dash. */
function isFlagLike(token: string): boolean {
  return token.startsWith("-") && token !== "-";
}

/** Handles one flag token; returns how many following tokens it consumed, or an error message. */
function scanFlag(token: string, next: string | undefined, state: ScanState): number | string {
  const equals = token.indexOf("=");
  const name = equals === -1 ? token : token.slice(0, equals);
  const flag = findFlag(name);
  if (flag === undefined) return expandShortGroup(token, state) ?? unknownArgument(token);
  const unavailable = pendingMessage(flag, name);
  if (unavailable !== undefined) return unavailable;
  if (flag.deprecatedFor !== undefined) {
    state.warnings.push(`! ${name} is deprecated; use ${flag.deprecatedFor} instead.`);
  }
  const canonical = canonicalName(flag);
  if (flag.kind === "boolean") {
    if (equals !== -1) return `Flag '${name}' does not take a value.`;
    state.args.push(canonical);
    return 0;
  }
  if (equals !== -1) {
    const value = token.slice(equals + 1);
    if (value === "") return `Flag '${name}' requires a value.`;
    state.warnings.push(`! ${token} still works but is deprecated; write ${name} ${value} instead.`);
    state.args.push(canonical, value);
    return 0;
  }
  if (next === undefined || next === "" || isFlagLike(next)) return `Flag '${name}' requires a value.`;
  state.args.push(canonical, next);
  return 1;
}

/** `-yf` means `-y -f`, but only when every letter is a boolean flag that is available. */
function expandShortGroup(token: string, state: ScanState): number | undefined {
  if (!/^-[A-Za-z]{2,}$/.test(token)) return undefined;
  const flags = [...token.slice(1)].map((letter) => findFlag(`-${letter}`));
  const canonical: string[] = [];
  for (const flag of flags) {
    if (flag === undefined || flag.kind !== "boolean" || flag.pending !== undefined) return undefined;
    canonical.push(canonicalName(flag));
  }
  state.args.push(...canonical);
  return 0;
}

function canonicalName(flag: FlagSpec): string {
  return flag.deprecatedFor ?? flag.long;
}

function pendingMessage(flag: FlagSpec, name: string): string | undefined {
  if (flag.pending === undefined) return undefined;
  if (flag.notPlanned !== undefined) return `Flag '${name}' is not planned: ${flag.notPlanned}.`;
  return `Flag '${name}' is not available yet: it needs ${flag.pending}, which this version of hankweave does not have.`;
}

function unknownArgument(token: string): string {
  return `Unknown argument '${token}'. Run with --help for available options.`;
}
