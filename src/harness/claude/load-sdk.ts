import { createRequire } from "node:module";
import type { ClaudeQueryOptions } from "./query-options.ts";

export const CLAUDE_SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";
export const CLAUDE_INSTALL_COMMAND = "npm install @anthropic-ai/claude-agent-sdk@0.3";

/** The message a run shows when a codon needs Claude and the SDK is not installed. */
export const CLAUDE_NOT_INSTALLED = `The Claude Agent SDK (${CLAUDE_SDK_PACKAGE}) is not installed; Claude models need it. Install it with: ${CLAUDE_INSTALL_COMMAND}`;

/** One running `query()`: the SDK's messages, read as untyped JSON (json-fields.ts). */
export type ClaudeQuery = AsyncIterable<unknown>;

/** The part of the SDK this adapter calls. */
export interface ClaudeSdk {
  readonly query: (params: { prompt: string; options: ClaudeQueryOptions }) => ClaudeQuery;
}

export type SdkLoad =
  | { readonly ok: true; readonly sdk: ClaudeSdk }
  | { readonly ok: false; readonly message: string };

function isMissingPackage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    error.message.includes(CLAUDE_SDK_PACKAGE)
  );
}

/**
 * Imports the SDK. Called by the first Claude session only, so a hank without Claude codons never
 * loads it (0.35 s and a 400 MB native binary). A missing package is a value with the install hint.
 */
export async function importClaudeSdk(): Promise<SdkLoad> {
  try {
    const sdk = await import("@anthropic-ai/claude-agent-sdk");
    // Assigning the SDK's `query` to ClaudeSdk checks ClaudeQueryOptions against the SDK's Options.
    const adapter: ClaudeSdk = { query: sdk.query };
    return { ok: true, sdk: adapter };
  } catch (error) {
    if (isMissingPackage(error)) return { ok: false, message: CLAUDE_NOT_INSTALLED };
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `The Claude Agent SDK could not be loaded: ${reason}` };
  }
}

export type ClaudeAvailability =
  | { readonly available: true; readonly path: string; readonly binary: string }
  | { readonly available: false; readonly message: string; readonly hint: string };

export interface AvailabilityDeps {
  /** Resolves a module specifier as seen from a file (default: Node's resolver). */
  readonly resolve?: (specifier: string, fromFile: string) => string;
  readonly platform?: string;
  readonly arch?: string;
}

const nodeResolve = (specifier: string, fromFile: string): string =>
  createRequire(fromFile).resolve(specifier);

/** Where the SDK looks for Claude Code: its platform package (an optional dependency), glibc before musl. */
function binaryCandidates(platform: string, arch: string): string[] {
  const exe = platform === "win32" ? ".exe" : "";
  const base = `${CLAUDE_SDK_PACKAGE}-${platform}-${arch}`;
  const names = platform === "linux" ? [base, `${base}-musl`] : [base];
  return names.map((name) => `${name}/claude${exe}`);
}

function firstResolved(
  specifiers: readonly string[],
  fromFile: string,
  resolve: AvailabilityDeps["resolve"],
) {
  for (const specifier of specifiers) {
    try {
      return resolve?.(specifier, fromFile);
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/**
 * Whether the SDK and its Claude Code binary can be found, without importing anything: for
 * validation-time hints and the start-up self-test. The binary comes in an optional dependency, so an
 * install with `--omit=optional` has the SDK but cannot run it.
 */
export function checkClaudeAvailable(deps: AvailabilityDeps = {}): ClaudeAvailability {
  const resolve = deps.resolve ?? nodeResolve;
  const sdkPath = firstResolved([CLAUDE_SDK_PACKAGE], import.meta.url, resolve);
  if (sdkPath === undefined) {
    return {
      available: false,
      message: `The Claude Agent SDK (${CLAUDE_SDK_PACKAGE}) is not installed.`,
      hint: `Install it with: ${CLAUDE_INSTALL_COMMAND}`,
    };
  }
  const candidates = binaryCandidates(deps.platform ?? process.platform, deps.arch ?? process.arch);
  const binary = firstResolved(candidates, sdkPath, resolve);
  if (binary === undefined) {
    return {
      available: false,
      message: `The Claude Agent SDK is installed, but not its Claude Code binary (${candidates.join(" or ")}).`,
      hint: `Reinstall without --omit=optional: ${CLAUDE_INSTALL_COMMAND}`,
    };
  }
  return { available: true, path: sdkPath, binary };
}
