import { rmSync, writeFileSync } from "node:fs";
import type { HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import type { HarnessClock } from "../harness-clock.ts";
import { createClaudeStreamParser } from "./claude-stream-parser.ts";
import type { NamedCommand, OutputFormat } from "./command-config.ts";
import { decideOutcome } from "./decide-outcome.ts";
import { NO_USAGE, type OutputParser, type ParserSink } from "./output-parser.ts";
import { createPiJsonParser } from "./pi-json-parser.ts";
import { type Invocation, prepareInvocation } from "./prepare-invocation.ts";
import { runAgentProcess } from "./run-agent-process.ts";
import { createTextParser } from "./text-parser.ts";

/** What a command harness is built with; the defaults (real clock, random ids, os.tmpdir()) are composed at the edge. */
export interface CommandHarnessDeps {
  readonly clock: HarnessClock;
  /** A fresh unique id: generated session ids (`{sessionId}` in args) and prompt file names. */
  newId(): string;
  /** Where `{promptFile}` files are written; each is removed when its session ends. */
  readonly tempDir: string;
}

const PARSERS: Readonly<Record<OutputFormat, (sink: ParserSink) => OutputParser>> = {
  text: createTextParser,
  "claude-stream-json": createClaudeStreamParser,
  "pi-json": createPiJsonParser,
};

function abortReason(signal: AbortSignal): string {
  return signal.reason === undefined ? "aborted" : String(signal.reason);
}

/** A permanent failure before any process ran. */
function refused(message: string): SessionOutcome {
  const layers = { stream: "error", toolBatch: "completed", turn: "error" } as const;
  const reason = { type: "api-error", retriable: false, message } as const;
  return { kind: "failed", reason, sessionEstablished: false, layers, totals: NO_USAGE };
}

/**
 * A command-line agent runs with whatever tools its own CLI gives it: hankweave cannot restrict them,
 * so a session asked to is refused before the process starts, never run with more than it was given.
 */
export function toolSettingsRefusal(commandName: string): string {
  return `Tool settings cannot be applied to command/${commandName}: hankweave cannot restrict the tools of a command-line agent. Remove the agent's tools, restrict them in the agent's own command line (hankweave.commands.json), or use a Claude, pi or scripted model.`;
}

function writePromptFile(invocation: Invocation): string | undefined {
  if (invocation.promptFile === undefined) return undefined;
  try {
    writeFileSync(invocation.promptFile.path, invocation.promptFile.text, { mode: 0o600 });
    return undefined;
  } catch (caught) {
    return `Could not write the prompt file ${invocation.promptFile.path}: ${caught instanceof Error ? caught.message : String(caught)}`;
  }
}

/**
 * One command session: prepare the command line, run the agent, read its output into events, and
 * decide the outcome. Refusals before the process starts produce an outcome and no events; once the
 * process ran, the session ends with `turn.ended`.
 */
export async function runCommandSession(
  request: SessionRequest,
  command: NamedCommand,
  model: string | undefined,
  deps: CommandHarnessDeps,
  emit: (event: HarnessEvent) => void,
): Promise<SessionOutcome> {
  if (request.signal.aborted) {
    const layers = { stream: "aborted", toolBatch: "completed", turn: "aborted" } as const;
    return { kind: "aborted", reason: abortReason(request.signal), layers, totals: NO_USAGE };
  }
  if (request.tools !== undefined) return refused(toolSettingsRefusal(command.name));
  const prepared = prepareInvocation(request, {
    command,
    model,
    newId: () => deps.newId(),
    tempDir: deps.tempDir,
  });
  if (!prepared.ok) return refused(prepared.message);
  const { invocation } = prepared;
  const fileProblem = writePromptFile(invocation);
  if (fileProblem !== undefined) return refused(fileProblem);
  return runInvocation(request, command, invocation, deps, emit);
}

/** Runs a prepared invocation to its outcome; the session ends with `turn.ended` once the process ran. */
async function runInvocation(
  request: SessionRequest,
  command: NamedCommand,
  invocation: Invocation,
  deps: CommandHarnessDeps,
  emit: (event: HarnessEvent) => void,
): Promise<SessionOutcome> {
  const parser = PARSERS[command.output]({ emit, now: () => deps.clock.now() });
  const known = invocation.knownSessionId;
  // Agents that print no session ids get the known one announced for them.
  if (command.output === "text" && known !== undefined) emit({ type: "session.started", sessionId: known });
  let printed = false;
  const result = await runAgentProcess({
    file: invocation.file,
    args: invocation.args,
    cwd: request.cwd,
    env: invocation.env,
    ...(invocation.stdin !== undefined && { stdin: invocation.stdin }),
    signal: request.signal,
    clock: deps.clock,
    killGraceMs: command.killGraceMs,
    onStdoutLine: (line) => {
      printed ||= line.trim() !== "";
      parser.line(line);
    },
  });
  if (invocation.promptFile !== undefined) rmSync(invocation.promptFile.path, { force: true });
  const outcome = decideOutcome({
    exit: result,
    ...(result.aborted && { abortReason: abortReason(request.signal) }),
    sessionId: parser.sessionId() ?? known,
    sessionEstablished:
      parser.sessionId() !== undefined || (!parser.reportsResult && (known !== undefined || printed)),
    verdict: parser.verdict(),
    reportsResult: parser.reportsResult,
    text: parser.text(),
    totals: parser.totals(),
    streams: parser.streams(),
    pendingTools: parser.pendingTools(),
    stderrTail: result.stderrTail,
  });
  if (result.spawnError === undefined) emit({ type: "turn.ended", reason: outcome.layers.turn });
  return outcome;
}
