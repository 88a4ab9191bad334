import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { formatJsonPath, type ValidationIssue } from "../hank/issues.ts";
import { loadHankFile } from "../hank/load.ts";
import type { ResolvedModel } from "../hank/models/index.ts";
import type { HankFile } from "../hank/schema/index.ts";
import { validateHank } from "../hank/validate/index.ts";

/** Where a test run lives: one temp directory holding the hank (for object hanks), workspace and journal. */
export interface TestHankLayout {
  /** The temp directory; `remove()` deletes it. */
  readonly dir: string;
  /** The directory hank refs are resolved against. */
  readonly hankDir: string;
  /** The agent's working directory (empty at the start). */
  readonly agentRoot: string;
  /** `events.jsonl` of the run. */
  readonly journalPath: string;
}

export interface PreparedHank extends TestHankLayout {
  readonly hank: HankFile;
  readonly models: ReadonlyMap<string, ResolvedModel>;
  /** Validation warnings (a hank with errors never gets this far). */
  readonly warnings: readonly ValidationIssue[];
}

export interface PrepareHankInput {
  /** A hank object (what hank.json parses to), or the path of a hank file or a directory with hank.json. */
  readonly hank: unknown;
  /** Files to create in the hank directory first (prompts, rig sources), by relative path. Object hanks only. */
  readonly files?: Readonly<Record<string, string>>;
  /** Every codon's model, loops included (the CLI's `-m`); null keeps the hank's own models. */
  readonly model: string | null;
  /** The environment validation checks requirements against. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Use this layout (an earlier run's) instead of a new temp directory. */
  readonly layout?: TestHankLayout;
}

/**
 * Validates the hank the way a run does and lays out a temp directory for it. A hank that does not
 * validate is a mistake in the test, so this throws with every error listed (and leaves nothing behind).
 */
export function prepareTestHank(input: PrepareHankInput): PreparedHank {
  if (input.layout !== undefined) return prepareIn(input.layout.dir, input);
  const dir = mkdtempSync(join(tmpdir(), "hankweave-test-"));
  try {
    return prepareIn(dir, input);
  } catch (caught) {
    rmSync(dir, { recursive: true, force: true });
    throw caught;
  }
}

function prepareIn(dir: string, input: PrepareHankInput): PreparedHank {
  const source = locate(dir, input);
  const agentRoot = join(dir, "agentRoot");
  mkdirSync(agentRoot, { recursive: true });
  const report = validateHank(source.raw, {
    hankPath: source.hankPath,
    hankDir: source.hankDir,
    env: input.env,
    ...(input.model !== null && { modelOverride: input.model }),
  });
  const errors = report.issues.filter((issue) => issue.severity === "error");
  if (!report.ok || report.hank === undefined) {
    throw new Error(`The test hank does not validate:\n${errors.map(describeIssue).join("\n")}`);
  }
  return {
    dir,
    hankDir: source.hankDir,
    agentRoot,
    journalPath: join(dir, "events.jsonl"),
    hank: report.hank,
    models: report.models,
    warnings: report.issues.filter((issue) => issue.severity === "warning"),
  };
}

interface HankSource {
  readonly raw: unknown;
  readonly hankPath: string;
  readonly hankDir: string;
}

function locate(dir: string, input: PrepareHankInput): HankSource {
  if (typeof input.hank === "string") {
    if (input.files !== undefined) throw new Error("`files` goes with a hank object, not a hank path");
    const loaded = loadHankFile(input.hank, process.cwd());
    if (!loaded.ok) throw new Error(`Cannot load the test hank: ${loaded.issue.message}`);
    return { raw: loaded.raw, hankPath: loaded.hankPath, hankDir: loaded.hankDir };
  }
  const hankDir = join(dir, "hank");
  mkdirSync(hankDir, { recursive: true });
  for (const [relative, content] of Object.entries(input.files ?? {})) {
    const target = join(hankDir, relative);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  const hankPath = join(hankDir, "hank.json");
  writeFileSync(hankPath, `${JSON.stringify(input.hank, null, 2)}\n`);
  return { raw: input.hank, hankPath, hankDir };
}

function describeIssue(issue: ValidationIssue): string {
  return `  ${formatJsonPath(issue.path)}: ${issue.message} (${issue.code})`;
}
