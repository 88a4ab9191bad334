import { resolve } from "node:path";
import type { ValidationIssue } from "../hank/issues.ts";
import { loadHankFile } from "../hank/load.ts";
import type { HankFile } from "../hank/schema/index.ts";
import type { ValidationReport } from "../hank/validate/index.ts";
import { validateHank } from "../hank/validate/index.ts";
import { harnessProblem, harnessPromptProblems } from "../harness/availability.ts";

export interface LoadHankInput {
  /** A hank .json file or a directory holding hank.json, absolute or relative to `cwd`. */
  readonly hank: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Every codon's model (`-m`). */
  readonly model?: string;
  /** The data source, absolute or relative to `cwd`: checked to exist and be readable. */
  readonly data?: string;
}

export type LoadedHank =
  | {
      readonly ok: true;
      readonly hank: HankFile;
      readonly hankPath: string;
      readonly hankDir: string;
      /** The file's text, hashed to recognise the execution of this hank. */
      readonly text: string;
      readonly report: ValidationReport;
    }
  | {
      readonly ok: false;
      /** Absolute when the file was found; the argument as given otherwise. */
      readonly hankPath: string;
      /** The file could not be read or parsed: one issue naming it and the fix. */
      readonly loadIssue?: ValidationIssue;
      readonly position?: { readonly line: number; readonly column: number; readonly offset: number };
      /** The file was read but is invalid: every issue at once. */
      readonly report?: ValidationReport;
    };

/**
 * Every run validates first: an invalid hank is reported whole (file, JSON path, message and fix for
 * every issue) and nothing is created. Rendering the report is the caller's business.
 */
export function loadValidatedHank(input: LoadHankInput): LoadedHank {
  const loaded = loadHankFile(input.hank, input.cwd);
  if (!loaded.ok) {
    return {
      ok: false,
      hankPath: input.hank,
      loadIssue: loaded.issue,
      ...(loaded.position !== undefined && { position: loaded.position }),
    };
  }
  const report = validateHank(loaded.raw, {
    hankPath: loaded.hankPath,
    hankDir: loaded.hankDir,
    env: input.env,
    harnessProblem,
    promptProblems: harnessPromptProblems,
    ...(input.model !== undefined && { modelOverride: input.model }),
    ...(input.data !== undefined && { dataPath: resolve(input.cwd, input.data), dataShown: input.data }),
  });
  if (!report.ok || report.hank === undefined) return { ok: false, hankPath: loaded.hankPath, report };
  return {
    ok: true,
    hank: report.hank,
    hankPath: loaded.hankPath,
    hankDir: loaded.hankDir,
    text: loaded.text,
    report,
  };
}
