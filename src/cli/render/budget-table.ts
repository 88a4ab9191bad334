import type { BudgetTableChild, BudgetTableRow } from "../../hank/validate/index.ts";
import { palette, type RenderOptions } from "./style.ts";
import { renderTable } from "./table.ts";

const HEADER = ["child", "kind", "share", "starts with", "cap", "time cap", "on exceeded"];

/**
 * The budget table: one block per budget scope (the hank, then each loop with a budget) with its
 * limits, then one line per child saying what it may spend when the run starts. Empty string when
 * the hank declares no budget.
 */
export function renderBudgetTable(rows: readonly BudgetTableRow[], options: RenderOptions): string {
  if (rows.length === 0) return "";
  const paint = palette(options.color);
  const lines = [paint.bold("Budgets:")];
  for (const row of rows) {
    lines.push(`  ${row.scope === "hank" ? "hank" : `loop ${row.id}`}: ${scopeLimits(row)}`);
    if (row.children.length > 0) {
      const [head = "", ...body] = renderTable(HEADER, row.children.map(childCells), "    ");
      lines.push(paint.dim(head), ...body);
    }
  }
  const unpriced = rows.flatMap((row) => row.children).filter((child) => child.priced === false);
  if (unpriced.length > 0) {
    lines.push(
      `  ${paint.yellow("!")} no pricing data for ${unpriced.map((child) => child.id).join(", ")}: cost tracking may be inaccurate.`,
    );
  }
  return lines.join("\n");
}

function scopeLimits(row: BudgetTableRow): string {
  const limits = [
    row.maxDollars === undefined ? "no dollar limit" : dollars(row.maxDollars),
    row.maxTimeSeconds === undefined ? "no time limit" : `${row.maxTimeSeconds} s`,
    row.allocation,
    `on exceeded: ${row.onExceeded}`,
  ];
  return limits.join(" • ");
}

function childCells(child: BudgetTableChild): string[] {
  return [
    child.priced === false ? `${child.id} !` : child.id,
    child.kind,
    child.share === undefined ? "-" : `${Math.round(child.share * 1000) / 10}%`,
    child.allocatedDollars === undefined ? "-" : dollars(child.allocatedDollars),
    child.capDollars === undefined ? "-" : dollars(child.capDollars),
    child.capSeconds === undefined ? "-" : `${child.capSeconds} s`,
    child.onExceeded,
  ];
}

function dollars(amount: number): string {
  return `$${amount.toFixed(2)}`;
}
