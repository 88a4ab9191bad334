import type { ValidationIssue } from "../issues.ts";
import type { HarnessKind, ResolvedModel } from "../models/index.ts";
import type { HankFile } from "../schema/index.ts";
import type { HankView } from "./hank-view.ts";
import type { SentinelOwner } from "./sentinel-checks.ts";

/** What validation needs from the outside world. Nothing else is read from the process. */
export interface ValidationContext {
  /** The hank file itself (for messages). */
  readonly hankPath: string;
  /** The directory refs are resolved against. */
  readonly hankDir: string;
  /** The environment requirements and pass-through are checked against. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The CLI `-m`: replaces every codon's model (loops included) before validation. */
  readonly modelOverride?: string;
  /** Whether a program is on PATH; defaults to a PATH search of `env.PATH` for an executable file. */
  readonly findTool?: (name: string) => boolean;
  /**
   * Whether each harness can load here (SDK installed); supplied by the composition root, which may
   * look at packages. Undefined skips the check (validation never imports a provider SDK itself).
   */
  readonly harnessProblem?: (kind: HarnessKind) => string | undefined;
  /**
   * What the harness of a kind would refuse in a prompt (the scripted agent's script errors), each
   * with its line; supplied by the composition root. Undefined skips the check.
   */
  readonly promptProblems?: (kind: HarnessKind, prompt: string) => readonly PromptLineProblem[];
  /**
   * The data source the run would link, absolute. When given, it must exist and be readable; the run
   * uses the hank's directory when there is none.
   */
  readonly dataPath?: string;
  /** The data path as the user wrote it, for messages. Default: `dataPath`. */
  readonly dataShown?: string;
}

/**
 * The sentinel checks of validation (`sentinel-checks.ts` is the one implementation): a stage given to
 * `validateHankWith` rather than imported by it, because they read the event catalogue, whose schemas
 * take a start several milliseconds to build; the CLI's `--validate` loads them only for a hank that
 * may declare sentinels (`mayDeclareSentinels`), and `validateHank` always passes them.
 */
export interface SentinelStage {
  readonly checkSentinels: (placed: SentinelOwner, hankDir: string) => ValidationIssue[];
  readonly checkUnparsedSentinels: (view: HankView, hankDir: string) => ValidationIssue[];
}

/** A line of a prompt a harness would refuse. */
export interface PromptLineProblem {
  readonly line: number;
  readonly message: string;
}

export interface PromptSummary {
  /** Prompt files of the codon; 1 for `promptText`. */
  readonly files: number;
  /** Lines of the composed prompt after frontmatter and comments are stripped. */
  readonly lines: number;
}

export interface EnvPassthroughEntry {
  /** The name the agent sees (`HANKWEAVE_FOO` → `FOO`). */
  readonly name: string;
  /** The value, masked when the name looks like a secret. */
  readonly shown: string;
}

export interface ValidationReport {
  /** True when there is no error; warnings do not block a run. */
  readonly ok: boolean;
  readonly issues: ValidationIssue[];
  /** The parsed hank (defaults applied, model override applied) when the schema accepted it. */
  readonly hank?: HankFile;
  /** Resolved models by requested id. */
  readonly models: ReadonlyMap<string, ResolvedModel>;
  /** Prompt statistics by codon config id. */
  readonly prompts: ReadonlyMap<string, PromptSummary>;
  /** `HANKWEAVE_` variables passed through to agents, secrets masked. */
  readonly envPassthrough: ReadonlyArray<EnvPassthroughEntry>;
}
