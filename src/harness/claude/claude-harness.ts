import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadOnce } from "../../util/load-once.ts";
import type { Harness } from "../harness.ts";
import { createSession } from "../session-channel.ts";
import {
  type ClaudeHarnessOptions,
  DEFAULT_MAX_RETRIES,
  type ResolvedClaudeOptions,
} from "./claude-options.ts";
import { importClaudeSdk } from "./load-sdk.ts";

/**
 * The session's code (event mapping, retries, the SDK's options), loaded with the first session:
 * validation and runs of other harnesses never compile it.
 */
const sessionCode = loadOnce(() => import("./run-claude-session.ts"));

/**
 * The Claude harness (docs/harnesses.md, "Claude"): runs each session through the Claude Agent SDK
 * (`@anthropic-ai/claude-agent-sdk` 0.3, an optional peer dependency imported on the first session).
 * Sessions persist in Claude Code's transcripts, so `continue-previous` resumes them by id; cost is
 * Claude Code's own estimate; with `autoCompact` Claude Code compacts and reports the boundary.
 */
export function createClaudeHarness(options: ClaudeHarnessOptions = {}): Harness {
  const resolved = resolveOptions(options);
  return {
    name: "claude",
    capabilities: { resume: true, reportsCost: true, compaction: true },
    start: (request) =>
      createSession(async (emit) => {
        const { runClaudeSession } = await sessionCode();
        return runClaudeSession(request, resolved, emit);
      }),
  };
}

function resolveOptions(options: ClaudeHarnessOptions): ResolvedClaudeOptions {
  return {
    configDir: options.configDir,
    fallbackConfigDir: options.fallbackConfigDir ?? join(tmpdir(), "hankweave-claude"),
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    runningAsRoot: options.runningAsRoot ?? process.getuid?.() === 0,
    now: options.now ?? Date.now,
    loadSdk: options.loadSdk ?? importClaudeSdk,
    executablePath: options.executablePath,
  };
}
