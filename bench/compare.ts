/**
 * `node --import tsx bench/compare.ts [new.jsonl] [baseline.jsonl] [--threshold 20]`: compares a bench
 * output with the last recorded one, figure by figure, and flags every figure that got worse by more
 * than the threshold (percent, default 20) in its own direction (`better`: lower times, higher rates).
 * Exits 1 when any figure regressed. Defaults: bench/results/latest.jsonl against baseline.jsonl.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { FigureLine } from "./lib/figure.ts";

interface Results {
  readonly machine: Record<string, unknown> | null;
  readonly figures: Map<string, FigureLine>;
}

const results = join(import.meta.dirname, "results");
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { threshold: { type: "string", default: "20" } },
});
const threshold = Number(values.threshold) / 100;
const newPath = resolve(positionals[0] ?? join(results, "latest.jsonl"));
const basePath = resolve(positionals[1] ?? join(results, "baseline.jsonl"));
const fresh = read(newPath);
const base = read(basePath);

const rows: string[][] = [];
let regressions = 0;
for (const [key, now] of fresh.figures) {
  const before = base.figures.get(key);
  if (before === undefined) {
    rows.push([key, "–", String(now.median), now.unit, "", "new"]);
    continue;
  }
  if ((before.quick ?? false) !== (now.quick ?? false)) {
    rows.push([key, String(before.median), String(now.median), now.unit, "", "skipped (quick vs full)"]);
    continue;
  }
  const verdict = judge(before, now);
  if (verdict.regressed) regressions++;
  rows.push([key, String(before.median), String(now.median), now.unit, verdict.change, verdict.label]);
}
for (const key of base.figures.keys()) {
  if (!fresh.figures.has(key))
    rows.push([key, String(base.figures.get(key)?.median), "–", "", "", "not run"]);
}

const header = ["figure", "baseline", "new", "unit", "change", ""];
process.stdout.write(
  `baseline: ${basePath}\n  ${describe(base.machine)}\nnew:      ${newPath}\n  ${describe(fresh.machine)}\n\n`,
);
process.stdout.write(
  `${[header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n")}\n\n`,
);
process.stdout.write(
  regressions === 0
    ? `No figure regressed by more than ${values.threshold}%.\n`
    : `${regressions} figure(s) regressed by more than ${values.threshold}%.\n`,
);
process.exitCode = regressions === 0 ? 0 : 1;

/** How much worse the new median is, in the figure's own direction (a rate that halves is 2x worse). */
function judge(before: FigureLine, now: FigureLine): { regressed: boolean; change: string; label: string } {
  if (Math.abs(before.median) < 1e-9 || Math.abs(now.median) < 1e-9) {
    return { regressed: false, change: "", label: "zero, not compared" };
  }
  const worse = now.better === "higher" ? before.median / now.median : now.median / before.median;
  const change = `${now.median >= before.median ? "+" : ""}${(((now.median - before.median) / before.median) * 100).toFixed(1)}%`;
  if (worse > 1 + threshold) return { regressed: true, change, label: "REGRESSION" };
  if (worse < 1 / (1 + threshold)) return { regressed: false, change, label: "improved" };
  return { regressed: false, change, label: "" };
}

function read(path: string): Results {
  const figures = new Map<string, FigureLine>();
  let machine: Record<string, unknown> | null = null;
  for (const text of readFileSync(path, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    const line = JSON.parse(text) as Record<string, unknown>;
    if (line.bench === "machine") machine = line;
    else if (typeof line.figure === "string") {
      const figure = line as unknown as FigureLine;
      figures.set(`${figure.bench} ${figure.figure}`, figure);
    }
  }
  return { machine, figures };
}

function describe(machine: Record<string, unknown> | null): string {
  if (machine === null) return "(no machine line)";
  const load = Array.isArray(machine.loadAverage) ? machine.loadAverage.join(" ") : "?";
  return `${machine.date}: ${machine.cpus} CPUs, ${machine.memoryGb} GB, Node ${machine.node}, git ${machine.git}, load ${load}${machine.quick ? ", quick" : ""}`;
}
