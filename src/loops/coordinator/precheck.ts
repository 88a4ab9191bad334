import type { LoopRunRecord } from "../store/store-records.ts";
import { checkPins, endRunWith, tamperEnd } from "./contract-guard.ts";
import { endRun } from "./driver-context.ts";
import type { StepContext } from "./generation-step.ts";
import { loopEnv, scriptEnv } from "./loop-env.ts";
import { runGates } from "./run-gates.ts";
import { sandboxWrap } from "./sandbox-wrap.ts";

/**
 * The pre-check of a delivery Loop: before generation 1, when every gate is a command gate, the gates
 * run once (on the body's data, as there is no workspace yet); if all pass there is nothing to do and
 * the run ends `no-op: precheck_clean`, counting no generation. Returns whether it ended the run.
 */
export async function runPrecheck(context: StepContext, run: LoopRunRecord): Promise<boolean> {
  const { contract } = run;
  const { deps, token } = context;
  if (contract.kind !== "delivery" || contract.gates.length === 0) return false;
  if (!contract.gates.every((gate) => gate.kind === "command")) return false;
  const earlier = await deps.store.events(0, run.id);
  if (earlier.some((event) => event.type === "run.precheck")) return false;
  const { verdicts, tamper } = await runGates(contract.gates, {
    workspace: contract.body.data ?? run.dir,
    env: scriptEnv(deps.env, loopEnv({ run, generation: 0, inbox: "" })),
    signal: new AbortController().signal,
    approvals: new Set(),
    judge: async () => ({ error: "no judge in a pre-check" }),
    judgeContext: "",
    onStarted: (pgid) => context.children.add(pgid),
    checkPins: () => checkPins(contract),
    wrap: sandboxWrap(run, deps.privateDirs),
    workspaceWritable: false,
  });
  if (tamper !== undefined) {
    context.children.clear();
    await endRunWith(deps, token, run, tamperEnd(tamper));
    return true;
  }
  const clean = verdicts.length === contract.gates.length && verdicts.every((v) => v.verdict === "pass");
  const at = new Date(deps.clock.now()).toISOString();
  await deps.store.appendEvent(run.id, token, "run.precheck", { clean, gates: verdicts }, at);
  context.children.clear();
  if (!clean) return false;
  deps.report?.("pre-check: every gate already passes, nothing to do");
  await endRun(deps, token, run, { state: "no-op", cause: "precheck_clean" });
  return true;
}
