import { readFileSync } from "node:fs";
import { BLOCKED_BY_DEPENDENCY, type DependencyCause } from "../../events/loop-run-states.ts";
import type { PinnedGate } from "../model/contract.ts";
import type { GateVerdict } from "../model/generation-facts.ts";
import type { Tamper } from "./pin-files.ts";
import { lastLine, runArgv } from "./run-argv.ts";
import type { Wrap } from "./sandbox-wrap.ts";

/**
 * The gates after a generation, in order, stopping at the first that does not pass. A command gate
 * passes with exit 0, means `blocked` with exit 3, asks for a revision with any other exit; it may
 * print, as its last line, `{"blocking_issues": [{"id": "..."}], "cause": "missing_credential"}`. A
 * timeout or a crash is a gate error; a program that cannot start is an error retrying cannot fix. A
 * judge answers `{verdict, blocking_issues}`; a malformed answer means "revise", never a pass. A human
 * gate passes only with an approval for this generation; until then its verdict is `approval`.
 */
export interface JudgeAnswer {
  readonly text: string;
  readonly tokens: number | null;
}

export type JudgeRunner = (
  gate: Extract<PinnedGate, { kind: "judge" }>,
  prompt: string,
  signal: AbortSignal,
) => Promise<JudgeAnswer | { readonly error: string }>;

export interface GateContext {
  readonly workspace: string;
  /** Whether a sandboxed gate may write its cwd (a pre-check runs on the data: read-only). */
  readonly workspaceWritable?: boolean;
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Human gates approved for this generation. */
  readonly approvals: ReadonlySet<string>;
  readonly judge: JudgeRunner;
  /** What the judge is told about the loop (goal, definition of done, generation). */
  readonly judgeContext: string;
  readonly onStarted?: (pgid: number) => void;
  /** The run's sandbox around a command gate (the workspace writable); absent: no sandbox. */
  readonly wrap?: Wrap;
  /** Verifies the pinned contract; asked before every gate (a tampered pin runs no further gate). */
  readonly checkPins: () => Tamper | undefined;
}

/** The verdicts of the gates that ran; `tamper` when a pinned file changed before a gate could run. */
export interface GatesRun {
  readonly verdicts: GateVerdict[];
  readonly tamper?: Tamper;
}

const EXIT_BLOCKED = 3;

export async function runGates(gates: readonly PinnedGate[], context: GateContext): Promise<GatesRun> {
  const verdicts: GateVerdict[] = [];
  for (const gate of gates) {
    const tamper = context.checkPins();
    if (tamper !== undefined) return { verdicts, tamper };
    const verdict = await runGate(gate, context);
    verdicts.push(verdict);
    if (verdict.verdict !== "pass") break;
  }
  return { verdicts };
}

function runGate(gate: PinnedGate, context: GateContext): Promise<GateVerdict> {
  switch (gate.kind) {
    case "command":
      return commandGate(gate, context);
    case "judge":
      return judgeGate(gate, context);
    case "human":
      return Promise.resolve(
        context.approvals.has(gate.id)
          ? { gateId: gate.id, verdict: "pass", blockerIds: [], summary: "approved" }
          : {
              gateId: gate.id,
              verdict: "approval",
              blockerIds: [],
              summary: gate.prompt ?? "waiting for an approval",
            },
      );
  }
}

async function commandGate(
  gate: Extract<PinnedGate, { kind: "command" }>,
  context: GateContext,
): Promise<GateVerdict> {
  const result = await runArgv({
    argv: context.wrap?.(gate.run, context.workspace, context.workspaceWritable ?? true) ?? gate.run,
    cwd: context.workspace,
    env: context.env,
    timeoutMs: gate.timeout_sec * 1000,
    signal: context.signal,
    ...(context.onStarted !== undefined && { onStarted: context.onStarted }),
  });
  const base = { gateId: gate.id, blockerIds: [] as string[] };
  if (result.kind === "not-started") {
    return {
      ...base,
      verdict: "error",
      unrecoverable: true,
      summary: `cannot run the gate: ${result.message}`,
    };
  }
  if (result.kind === "killed") {
    const why = result.timedOut ? `timed out after ${gate.timeout_sec}s` : `killed by ${result.signal}`;
    return { ...base, verdict: "error", summary: why };
  }
  if (result.code === 126 || result.code === 127) {
    return {
      ...base,
      verdict: "error",
      unrecoverable: true,
      summary: `cannot run the gate (exit ${result.code}): ${lastLine(result.stderr)}`,
    };
  }
  const report = parseReport(lastLine(result.stdout));
  const summary = lastLine(result.stdout) || lastLine(result.stderr) || `exit ${result.code}`;
  if (result.code === 0) return { ...base, verdict: "pass", summary };
  if (result.code === EXIT_BLOCKED) {
    return {
      ...base,
      verdict: "blocked",
      blockerIds: report.blockerIds,
      cause: report.cause ?? "missing_dependency",
      summary,
    };
  }
  return { ...base, verdict: "revise", blockerIds: report.blockerIds, summary };
}

interface GateReport {
  readonly verdict?: string;
  readonly blockerIds: string[];
  readonly cause?: DependencyCause;
}

/** Reads `{verdict?, blocking_issues?: [{id}], cause?}` from a line; anything else reports nothing. */
export function parseReport(line: string): GateReport {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { blockerIds: [] };
  }
  if (typeof value !== "object" || value === null) return { blockerIds: [] };
  const record = value as Record<string, unknown>;
  const issues = Array.isArray(record.blocking_issues) ? record.blocking_issues : [];
  const blockerIds = issues
    .map((issue) => (typeof issue === "object" && issue !== null ? (issue as { id?: unknown }).id : issue))
    .filter((id): id is string | number => typeof id === "string" || typeof id === "number")
    .map(String)
    .sort();
  const cause = (BLOCKED_BY_DEPENDENCY as readonly unknown[]).includes(record.cause)
    ? (record.cause as DependencyCause)
    : undefined;
  return {
    blockerIds,
    ...(typeof record.verdict === "string" && { verdict: record.verdict }),
    ...(cause !== undefined && { cause }),
  };
}

async function judgeGate(
  gate: Extract<PinnedGate, { kind: "judge" }>,
  context: GateContext,
): Promise<GateVerdict> {
  const instructions = readFileSync(gate.instructions, "utf8");
  // The gate's own instructions come last, so that they are what the judge reads before answering.
  const prompt = `${context.judgeContext}\n\nAnswer with one JSON object on the last line: {"verdict": "pass" | "revise" | "blocked", "blocking_issues": [{"id": "..."}]}\n\n${instructions}`;
  const answer = await context.judge(gate, prompt, context.signal);
  if ("error" in answer) return { gateId: gate.id, verdict: "error", blockerIds: [], summary: answer.error };
  const report = parseReport(lastLine(answer.text));
  const base = {
    gateId: gate.id,
    blockerIds: report.blockerIds,
    tokens: answer.tokens,
    summary: lastLine(answer.text),
  };
  if (report.verdict === "pass" && report.blockerIds.length === 0) return { ...base, verdict: "pass" };
  if (report.verdict === "blocked")
    return { ...base, verdict: "blocked", cause: report.cause ?? "missing_dependency" };
  // Anything else, a malformed answer included, asks for a revision: never a silent pass.
  return { ...base, verdict: "revise" };
}
