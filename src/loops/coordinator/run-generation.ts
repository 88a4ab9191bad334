import type { Clock } from "../../util/clock.ts";
import type { PinnedContract } from "../model/contract.ts";
import type { GateVerdict, GenerationFacts } from "../model/generation-facts.ts";
import { generationHash } from "../model/generation-hash.ts";
import type { SandboxView } from "../sandbox/bwrap.ts";
import type { GenerationRecord } from "../store/store-records.ts";
import { runBodyInSandbox } from "./body-process.ts";
import { checkPins, type RunEnd, tamperEnd } from "./contract-guard.ts";
import { createJudgeRunner } from "./judge-session.ts";
import { bodyEnv } from "./loop-env.ts";
import { type BodyReport, type NodeActivity, runBody, workspaceOf } from "./run-body.ts";
import { runGates } from "./run-gates.ts";
import { type HookRan, runHook } from "./run-hook.ts";
import type { Wrap } from "./sandbox-wrap.ts";

/** What one generation needs from its driver. */
export interface GenerationDeps {
  readonly clock: Clock;
  readonly newId: () => string;
  readonly processEnv: Readonly<Record<string, string | undefined>>;
  /** The loop variables (key, generation, inbox...) for the body, gates and hooks. */
  readonly loopVars: Record<string, string>;
  readonly scriptEnv: Record<string, string>;
  readonly signal: AbortSignal;
  /** Budgets: says whether this generation's tokens so far exceed what is left. */
  readonly overBudget: (tokens: number) => boolean;
  readonly onChild?: (pgid: number) => void;
  /** The run's sandbox around gates and hooks. */
  readonly wrap?: Wrap;
  /** The run's sandbox for a body, by its run (or item) directory; absent: the body runs in-process. */
  readonly bodyView?: (runDir: string) => SandboxView;
  /** The tokens this generation may spend before its budget is exceeded; null: no token budget. */
  readonly tokenAllowance?: number | null;
  /** The inactivity clock's view of the nodes (codons, gates, hooks) this generation runs. */
  readonly activity?: NodeActivity;
  /** Records a hook that ran in the Loops event log. */
  readonly recordHook: (ran: HookRan) => Promise<void>;
}

export interface GenerationResult {
  readonly record: GenerationRecord;
  /** A `gate_pre` hook denial or error, or a tampered pinned file, ends the run at once. */
  readonly runEnd?: RunEnd;
}

/** The body, then (when it completed) the `gate_pre` hook and the gates; the facts and the hash. */
export async function runGeneration(
  contract: PinnedContract,
  started: GenerationRecord,
  runDir: string,
  deps: GenerationDeps,
): Promise<GenerationResult> {
  const body = await startBody(
    contract,
    runDir,
    started.number,
    bodyEnv(deps.processEnv, deps.loopVars),
    deps,
  );
  if (body.end.kind !== "completed") return { record: finish(started, body, [], null, deps.clock) };
  return continueGates(
    contract,
    finish(started, body, [], body.workspaceTree, deps.clock),
    runDir,
    deps,
    new Set(),
    body.workspaceTree,
  );
}

/** One body run, in-process, or in its own sandboxed process when the run has a sandbox. */
export function startBody(
  contract: PinnedContract,
  runDir: string,
  generation: number,
  env: Readonly<Record<string, string | undefined>>,
  deps: GenerationDeps,
): Promise<BodyReport> {
  const request = {
    contract,
    runDir,
    generation,
    env,
    clock: deps.clock,
    signal: deps.signal,
    newId: deps.newId,
    overBudget: deps.overBudget,
    ...(deps.activity !== undefined && { activity: deps.activity }),
    ...(deps.tokenAllowance !== undefined && { tokenAllowance: deps.tokenAllowance }),
  };
  return deps.bodyView === undefined
    ? runBody(request)
    : runBodyInSandbox(request, deps.bodyView(runDir), deps.onChild);
}

/**
 * Runs the gates a generation has not run yet (all of them after its body; the ones after an approved
 * human gate), then rehashes. `approvals` are the human gates approved for this generation.
 */
export async function continueGates(
  contract: PinnedContract,
  record: GenerationRecord,
  runDir: string,
  deps: GenerationDeps,
  approvals: ReadonlySet<string>,
  workspaceTree: string | null,
): Promise<GenerationResult> {
  // The gate phase (the gate_pre hook, then the gates in order) is one node for the inactivity clock.
  deps.activity?.started();
  try {
    return await gatePhase(contract, record, runDir, deps, approvals, workspaceTree);
  } finally {
    deps.activity?.ended();
  }
}

async function gatePhase(
  contract: PinnedContract,
  record: GenerationRecord,
  runDir: string,
  deps: GenerationDeps,
  approvals: ReadonlySet<string>,
  workspaceTree: string | null,
): Promise<GenerationResult> {
  const workspace = workspaceOf(runDir);
  const done = record.facts.gates.filter((g) => g.verdict === "pass" || approvals.has(g.gateId));
  const remaining = contract.gates.slice(done.length);
  const tampered = checkPins(contract);
  if (tampered !== undefined) return { record, runEnd: tamperEnd(tampered) };
  if (done.length === 0 && contract.hooks.gatePre !== null) {
    const hook = await runHook({
      hook: "gate_pre",
      generation: record.number,
      clock: deps.clock,
      recorded: deps.recordHook,
      argv: contract.hooks.gatePre,
      cwd: workspace,
      env: deps.scriptEnv,
      input: { runId: record.runId, generation: record.number, key: record.key },
      signal: deps.signal,
      ...(deps.wrap !== undefined && { wrap: deps.wrap }),
      ...(deps.onChild !== undefined && { onStarted: deps.onChild }),
    });
    if (hook.kind !== "allow") {
      const outcome =
        hook.kind === "deny"
          ? ({ state: "blocked", cause: "hook_denied" } as const)
          : ({ state: "failed", cause: "hook_error" } as const);
      return { record, runEnd: { outcome } };
    }
  }
  const { verdicts, tamper } = await runGates(remaining, {
    workspace,
    env: deps.scriptEnv,
    signal: deps.signal,
    approvals,
    judge: createJudgeRunner({ clock: deps.clock, stateDir: runDir, workspace, env: deps.scriptEnv }),
    judgeContext: `Goal: ${contract.goal}\nDefinition of done: ${contract.definitionOfDone ?? "(none)"}\nGeneration: ${record.number}`,
    ...(deps.onChild !== undefined && { onStarted: deps.onChild }),
    checkPins: () => checkPins(contract),
    ...(deps.wrap !== undefined && { wrap: deps.wrap }),
  });
  const gates = [
    ...done.map((g) =>
      approvals.has(g.gateId) ? { ...g, verdict: "pass" as const, summary: "approved" } : g,
    ),
    ...verdicts,
  ];
  const judgeTokens = verdicts.reduce<number | null>(
    (sum, v) => (sum === null || v.tokens === null ? null : sum + (v.tokens ?? 0)),
    0,
  );
  const facts: GenerationFacts = {
    ...record.facts,
    gates,
    hash: generationHash(contract.hashFields, { workspaceTree, gates }),
  };
  const tokens = record.tokens === null || judgeTokens === null ? null : record.tokens + judgeTokens;
  const gated = { ...record, facts, tokens };
  return tamper === undefined ? { record: gated } : { record: gated, runEnd: tamperEnd(tamper) };
}

function finish(
  started: GenerationRecord,
  body: BodyReport,
  gates: GateVerdict[],
  workspaceTree: string | null,
  clock: Clock,
): GenerationRecord {
  const state = body.end.kind === "completed" ? "completed" : body.end.kind;
  return {
    ...started,
    state,
    facts: { number: started.number, body: body.end, gates, hash: null },
    layers: body.layers,
    bodyRunId: body.bodyRunId,
    tokens: body.tokens,
    costUsd: body.costUsd,
    endedAt: new Date(clock.now()).toISOString(),
    workspaceTree,
  };
}
