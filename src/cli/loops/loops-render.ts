// Direct modules, not the loops barrel: `ls` and `show` render without loading the coordinator.
import { isTerminalState } from "../../events/loop-run-states.ts";
import type { AdmissionReport } from "../../loops/index.ts";
import { effectiveBudgets } from "../../loops/model/budgets.ts";
import { catalogEntries, successText } from "../../loops/model/catalog.ts";
import { endLayersOf } from "../../loops/model/end-layers.ts";
import { showCap } from "../../loops/model/limits.ts";
import type { GenerationRecord, LoopRunRecord } from "../../loops/store/store-records.ts";

/** Plain-text views of runs for `show`, `ls` and `lint`: one fact per line, greppable. */

export function durationText(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(s / 86_400)}d${Math.floor((s % 86_400) / 3600)}h`;
}

/** The state with its cause or park reason: `done (gates_passed)`, `needs-approval (budget_escalated)`. */
export function stateText(run: LoopRunRecord): string {
  const why = run.cause ?? run.parkReason;
  return why === null ? run.state : `${run.state} (${why})`;
}

/** The five meters: generations vs cap, tokens vs budget, wall clock vs budget, no-progress vs window, cost. */
export function meterLines(run: LoopRunRecord): string[] {
  const { meters, contract } = run;
  const budgets = effectiveBudgets(contract.limits, run.amendments);
  const tokens = `${meters.tokens}${meters.tokensKnown ? "" : "+ (some usage unknown)"}`;
  return [
    `generations   ${meters.generations} / ${showCap(contract.limits.iteration_cap)}`,
    `tokens        ${tokens} / ${budgets.tokens === 0 ? "off" : budgets.tokens}`,
    `wall clock    ${durationText(meters.runningMs)} / ${budgets.wallClockSec === 0 ? "off" : durationText(budgets.wallClockSec * 1000)} (running time only)`,
    `no progress   ${meters.noProgress} / ${contract.limits.window}`,
    `cost          $${meters.costUsd.toFixed(4)}${meters.costKnown ? "" : "+"} (a meter, never a cap)`,
  ];
}

export function showText(
  run: LoopRunRecord,
  generations: readonly GenerationRecord[],
  now: number,
  tamper?: Readonly<Record<string, unknown>>,
): string {
  const c = run.contract;
  const lines = [
    `run ${run.id}  loop ${run.loopId} (${c.kind})  key ${run.key}`,
    `state         ${stateText(run)}  since ${run.stateSince} (${durationText(now - Date.parse(run.stateSince))})`,
    "",
    "contract (pinned at admission)",
    `  goal        ${c.goal}`,
    ...(c.definitionOfDone === null ? [] : [`  done when   ${c.definitionOfDone}`]),
    `  owner       ${c.owner ?? "(none)"}`,
    `  limits      ${Object.entries(c.limits)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")}`,
    `  on budget   ${c.onExceeded}`,
    `  gates       ${c.gates.map((g) => `${g.id} (${g.kind}, max ${g.maxRevisions} revisions)`).join(", ") || "(none)"}`,
    ...c.clamped.map((m) => `  clamped     ${m}`),
    ...(c.admittedAnyway === null ? [] : [`  admitted anyway: ${c.admittedAnyway}`]),
    ...(c.notices ?? []).map((n) => `  warning     ${n.code}: ${n.message}`),
    ...Object.entries(c.hashes).map(([path, hash]) => `  pinned      ${path}  sha256:${hash.slice(0, 16)}`),
    ...run.amendments.map((a) => `  amendment   +${a.add} ${a.budget} by ${a.by} at ${a.at}`),
    "",
    "meters",
    ...meterLines(run).map((l) => `  ${l}`),
    "",
    "generations",
    ...generations.map(generationLine),
  ];
  if (isTerminalState(run.state)) lines.push("", `outcome       ${run.state}: ${run.cause ?? ""}`);
  const layers = endLayersOf(run, generations.at(-1));
  if (layers !== null) lines.push(`layers        driver ${layers.driver}, goal ${layers.goal}`);
  if (tamper !== undefined)
    lines.push(
      `tampered      ${String(tamper.label)} (${String(tamper.path)}): expected sha256:${String(tamper.expected)}, found ${String(tamper.found)}`,
    );
  return `${lines.join("\n")}\n`;
}

function generationLine(g: GenerationRecord): string {
  const gates = g.facts.gates
    .map((v) => `${v.gateId}=${v.verdict}${v.blockerIds.length > 0 ? `[${v.blockerIds.join(",")}]` : ""}`)
    .join(" ");
  // Every attempt that did not complete cleanly, the one a crash interrupted included.
  const worst = g.layers
    .filter((l) => l.codon !== "completed" || l.turn !== "completed")
    .map(
      (l) =>
        `${l.codonId}${l.attempt === undefined ? "" : ` attempt ${l.attempt}`}: codon ${l.codon}, turn ${l.turn}, stream ${l.stream}`,
    );
  const inbox = g.readMessages.length > 0 ? ` inbox ${g.readMessages.map((id) => `#${id}`).join(",")}` : "";
  return `  #${g.number} ${g.state}  ${gates}${inbox}  tokens ${g.tokens ?? "?"}${worst.length > 0 ? `  (${worst.join("; ")})` : ""}`;
}

/**
 * One row per run, except that consecutive clean watch ticks of a loop share one row (`×N`, the
 * newest's id, the oldest's creation): a watch that finds nothing every few minutes would otherwise
 * bury every other run.
 */
export function lsText(runs: readonly LoopRunRecord[], now: number): string {
  const header = ["RUN", "LOOP", "STATE", "IN STATE", "GENERATIONS", "HELD BY", "CREATED"];
  const rows = groupCleanTicks(runs).map(({ run: r, count, oldest }) => [
    count > 1 ? `${r.id} (+${count - 1} older)` : r.id,
    r.loopId,
    count > 1 ? `${stateText(r)} ×${count}` : stateText(r),
    durationText(now - Date.parse(r.stateSince)),
    String(r.meters.generations),
    holderText(r, now),
    count > 1 ? `${oldest.createdAt} .. ${r.createdAt}` : r.createdAt,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const format = (row: readonly string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return `${[format(header), ...rows.map(format)].join("\n")}\n`;
}

interface RunGroup {
  readonly run: LoopRunRecord;
  readonly count: number;
  readonly oldest: LoopRunRecord;
}

function groupCleanTicks(runs: readonly LoopRunRecord[]): RunGroup[] {
  const groups: RunGroup[] = [];
  const cleanTick = (r: LoopRunRecord) => r.state === "no-op" && r.cause === "clean_tick";
  for (const run of runs) {
    const last = groups.at(-1);
    if (last !== undefined && cleanTick(run) && cleanTick(last.run) && last.run.loopId === run.loopId)
      groups[groups.length - 1] = { ...last, count: last.count + 1, oldest: run };
    else groups.push({ run, count: 1, oldest: run });
  }
  return groups;
}

/**
 * Who drives a live run: its lease holder (`host:pid:nonce`, a daemon's nonce starts with `daemon-`)
 * while the lease is unexpired; `-` for an ended run or one no driver holds.
 */
export function holderText(run: LoopRunRecord, now: number): string {
  if (isTerminalState(run.state) || run.leaseOwner === null) return "-";
  return (run.leaseExpiresAt ?? 0) > now ? run.leaseOwner : "-";
}

/** Per loop: its success over 30 days (`done` only; no-op apart), its last run, a changed definition. */
export function catalogText(runs: readonly LoopRunRecord[], now: number): string {
  const lines = catalogEntries(runs, now).map((entry) => {
    const last =
      entry.last === null
        ? "-"
        : `${entry.last.state}${entry.last.cause === null ? "" : ` (${entry.last.cause})`}`;
    const changed =
      entry.definitionChanged === null ? "" : `\n  warning (definition-changed): ${entry.definitionChanged}`;
    return `${entry.loopId}: ${successText(entry)} over ${entry.ended} ended run(s) in 30 days; last ${last}${changed}`;
  });
  return lines.length === 0 ? "" : `\n${lines.join("\n")}\n`;
}

export function admissionText(report: AdmissionReport): string {
  const lines = report.rows.map(
    (r) => `  ${r.met ? "ok     " : "MISSING"}  ${r.condition.padEnd(16)} ${r.answer}`,
  );
  const warnings = report.warnings.map((w) => `  warning  ${w.message}`);
  return `${["admission", ...lines, ...warnings].join("\n")}\n`;
}
