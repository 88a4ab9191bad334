import { loadHankFile } from "../../src/hank/load.ts";
import type { ResolvedModel } from "../../src/hank/models/index.ts";
import type { HankFile } from "../../src/hank/schema/index.ts";
import { validateHank } from "../../src/hank/validate/index.ts";

/** Loads and validates a benchmark hank the way the CLI does; a bench hank that fails is a bug. */
export function loadFixture(hankDir: string): { hank: HankFile; models: ReadonlyMap<string, ResolvedModel> } {
  const loaded = loadHankFile(hankDir, process.cwd());
  if (!loaded.ok) throw new Error(`bench hank: ${loaded.issue.message}`);
  const report = validateHank(loaded.raw, {
    hankPath: loaded.hankPath,
    hankDir: loaded.hankDir,
    env: process.env,
  });
  if (!report.ok || report.hank === undefined) {
    const errors = report.issues.filter((issue) => issue.severity === "error").map((issue) => issue.message);
    throw new Error(`bench hank is invalid: ${errors.join("; ")}`);
  }
  return { hank: report.hank, models: report.models };
}
