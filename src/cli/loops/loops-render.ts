import {
  type AdmissionReport,
  effectiveBudgets,
  type GenerationRecord,
  isTerminalState,
  type LoopRunRecord,
  showCap,
} from "../../loops/index.ts";

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
  const worst = g.layers
    .filter((l) => l.codon !== "completed" || l.turn !== "completed")
    .map((l) => `${l.codonId}: codon ${l.codon}, turn ${l.turn}`);
  const inbox = g.readMessages.length > 0 ? ` inbox ${g.readMessages.map((id) => `#${id}`).join(",")}` : "";
  return `  #${g.number} ${g.state}  ${gates}${inbox}  tokens ${g.tokens ?? "?"}${worst.length > 0 ? `  (${worst.join("; ")})` : ""}`;
}

export function lsText(runs: readonly LoopRunRecord[], now: number): string {
  const header = ["RUN", "LOOP", "STATE", "IN STATE", "GENERATIONS", "HELD BY", "CREATED"];
  const rows = runs.map((r) => [
    r.id,
    r.loopId,
    stateText(r),
    durationText(now - Date.parse(r.stateSince)),
    String(r.meters.generations),
    holderText(r, now),
    r.createdAt,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const format = (row: readonly string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return `${[format(header), ...rows.map(format)].join("\n")}\n`;
}

/**
 * Who drives a live run: its lease holder (`host:pid:nonce`, a daemon's nonce starts with `daemon-`)
 * while the lease is unexpired; `-` for an ended run or one no driver holds.
 */
export function holderText(run: LoopRunRecord, now: number): string {
  if (isTerminalState(run.state) || run.leaseOwner === null) return "-";
  return (run.leaseExpiresAt ?? 0) > now ? run.leaseOwner : "-";
}

/** Per loop: runs in the last 30 days that ended, and the share that ended done or no-op. */
export function catalogText(runs: readonly LoopRunRecord[], now: number): string {
  const since = now - 30 * 86_400_000;
  const byLoop = new Map<string, LoopRunRecord[]>();
  for (const run of runs) {
    if (run.endedAt === null || Date.parse(run.endedAt) < since) continue;
    byLoop.set(run.loopId, [...(byLoop.get(run.loopId) ?? []), run]);
  }
  const lines = [...byLoop.entries()].map(([loopId, ended]) => {
    const ok = ended.filter((r) => r.state === "done" || r.state === "no-op").length;
    const last = ended[0];
    return `${loopId}: ${Math.round((100 * ok) / ended.length)}% success over ${ended.length} run(s) in 30 days; last ${last === undefined ? "-" : stateText(last)}`;
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
