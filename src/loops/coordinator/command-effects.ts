import type { Outcome } from "../../events/loop-run-states.ts";
import { type BudgetAmendment, effectiveBudgets, exceededBudget } from "../model/budgets.ts";
import type { Via } from "../model/state-table.ts";
import type { LoopCommand, LoopRunRecord } from "../store/store-records.ts";

/**
 * What an operator command does to a run at a boundary, decided purely from the run and the command.
 * Pause and stop of a running run are not here: they are inputs of the stop model's decision (a
 * terminal decision at the same boundary wins over a pause), applied by the driver.
 */
export type CommandEffect =
  | {
      readonly kind: "move";
      readonly to: LoopRunRecord["state"];
      readonly via: Via;
      readonly amendments?: readonly BudgetAmendment[];
      readonly approvedGate?: string;
    }
  | { readonly kind: "end"; readonly outcome: Outcome }
  | { readonly kind: "refuse"; readonly why: string }
  | { readonly kind: "defer" };

/** Stands for the human gate waiting for an approval where the caller cannot know which one it is. */
const SOME_HUMAN_GATE = "(the gate waiting)";

/**
 * The refusal a command would meet at the run's next boundary, known now from the run as it stands:
 * an operator is told at once, before the command is recorded, instead of finding `refused` in the
 * log later. Which human gate waits is not known here, so an approval at a human gate passes this
 * check (the boundary still checks it); the run may also change before the boundary, which then has
 * the last word.
 */
export function refusalNow(run: LoopRunRecord, command: LoopCommand): string | undefined {
  const effect = commandEffect(run, command, SOME_HUMAN_GATE, new Date().toISOString());
  return effect.kind === "refuse" ? effect.why : undefined;
}

/**
 * The command an operator gives to move a waiting run on: the verb this park accepts (a budget
 * approval must add an amount; a paused run takes `resume`, never `approve`). Derived from the same
 * rules as `commandEffect`, so the hint never names a verb the run would refuse.
 */
export function parkHint(run: LoopRunRecord): string {
  const cli = (verb: string) => `hankweave loops ${verb}`;
  if (run.state === "paused") return `continue it with \`${cli(`resume ${run.id}`)}\``;
  if (run.state === "needs-approval" && run.parkReason === "budget_escalated") {
    const exceeded = exceededBudget(run.meters, effectiveBudgets(run.contract.limits, run.amendments));
    const unit = exceeded === "wall_clock" ? "seconds" : "tokens";
    return `add to the budget with \`${cli(`approve ${run.id} --add <${unit}>`)}\`, or end it with \`${cli(`reject ${run.id}`)}\``;
  }
  if (run.state === "needs-approval")
    return `decide with \`${cli(`approve ${run.id}`)}\` or \`${cli(`reject ${run.id}`)}\``;
  return `it moves on by itself (${run.state}); \`${cli(`stop ${run.id}`)}\` ends it`;
}

export function commandEffect(
  run: LoopRunRecord,
  command: LoopCommand,
  pendingHumanGate: string | null,
  at: string,
): CommandEffect {
  const { state } = run;
  switch (command.type) {
    case "stop":
      return state === "running"
        ? { kind: "defer" }
        : { kind: "end", outcome: { state: "failed", cause: "operator_stop" } };
    case "pause":
      if (state === "running") return { kind: "defer" };
      if (state === "watching") return { kind: "move", to: "paused", via: "operator_pause" };
      return { kind: "refuse", why: `the run is ${state}` };
    case "resume":
      if (state !== "paused") return { kind: "refuse", why: `the run is ${state}, not paused` };
      return { kind: "move", to: run.pausedFrom === "watching" ? "watching" : "running", via: "resumed" };
    case "approve":
      return approve(run, command, pendingHumanGate, at);
    case "reject":
      return reject(run);
  }
}

function approve(
  run: LoopRunRecord,
  command: LoopCommand,
  pendingHumanGate: string | null,
  at: string,
): CommandEffect {
  if (run.state !== "needs-approval")
    return { kind: "refuse", why: `the run is ${run.state}, nothing waits for an approval` };
  if (run.parkReason === "budget_escalated") {
    const exceeded = exceededBudget(run.meters, effectiveBudgets(run.contract.limits, run.amendments));
    if (command.add === undefined || command.add <= 0) {
      return {
        kind: "refuse",
        why: "a budget approval must add an amount: approve --add <tokens or seconds>",
      };
    }
    const amendment: BudgetAmendment = { budget: exceeded ?? "tokens", add: command.add, by: command.by, at };
    return { kind: "move", to: "running", via: "approved", amendments: [...run.amendments, amendment] };
  }
  if (run.parkReason === "human_gate") {
    if (pendingHumanGate === null) return { kind: "refuse", why: "no human gate is waiting" };
    return { kind: "move", to: "running", via: "approved", approvedGate: pendingHumanGate };
  }
  return { kind: "move", to: "running", via: "approved" };
}

function reject(run: LoopRunRecord): CommandEffect {
  if (run.state !== "needs-approval")
    return { kind: "refuse", why: `the run is ${run.state}, nothing waits for an approval` };
  if (run.parkReason === "budget_escalated") {
    const exceeded = exceededBudget(run.meters, effectiveBudgets(run.contract.limits, run.amendments));
    return {
      kind: "end",
      outcome: {
        state: "exhausted",
        cause: exceeded === "wall_clock" ? "budget_wall_clock" : "budget_tokens",
      },
    };
  }
  return { kind: "end", outcome: { state: "blocked", cause: "human_rejected" } };
}
