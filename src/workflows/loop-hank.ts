import { createHash } from "node:crypto";
import type { CodonInput, HankFileInput } from "../hank/schema/index.ts";
import type { ToolSettings } from "../harness/index.ts";
import type { CheckedLoopOptions } from "./loop-options.ts";

/** The loop's id in the generated hank and in its journal. */
export const LOOP_ID = "loop";

/** Where a step's input lives, relative to the loop's hank directory. */
export const PROMPTS_DIR = "prompts";

/** One step of the loop as the runtime knows it. */
export interface LoopStep {
  /** 0-based position in `steps`. */
  readonly index: number;
  /** The codon's config id (`coder`, `review-2`); runtime ids add `#<iteration>`. */
  readonly configId: string;
  readonly agentName: string;
  /** The step's input file, relative to the hank directory: read by the runtime when the step starts. */
  readonly promptFile: string;
}

/** A loop written as a hank: one loop whose codons are the steps, in order. */
export interface LoopHank {
  /** The hank object (what hank.json holds). */
  readonly hank: HankFileInput;
  readonly steps: readonly LoopStep[];
  /** Config id to step. */
  readonly byConfigId: ReadonlyMap<string, LoopStep>;
  /**
   * The agents' tool settings by config id, for the runtime (`codonTools`); undefined when no agent
   * has any. Not in the hank: hank files keep the reference format, which has no tool field.
   */
  readonly codonTools?: Readonly<Record<string, ToolSettings>>;
}

/**
 * Writes the loop as a hank (pure). Each step is a codon reading its input from its own prompt file,
 * which the step before it fills in; the loop ends after `maxIterations`. The per-step deadline is the
 * codon's time budget (the runtime stops the step there and fails it), the dollar and time ceilings
 * are the loop's budget. `checkpointed` tracks the whole workspace in the checkpoints (durable loops).
 *
 * The description records what else makes two calls the same loop (lifetime, token budget, input), so
 * that a durable directory is never continued with different arguments: the runner refuses a changed
 * hank.
 */
export function buildLoopHank(options: CheckedLoopOptions, checkpointed: boolean): LoopHank {
  const steps = stepIds(options.steps.map((agent) => agent.name)).map(
    (configId, index): LoopStep => ({
      index,
      configId,
      agentName: options.steps[index]?.name ?? configId,
      promptFile: `${PROMPTS_DIR}/${configId}.md`,
    }),
  );
  const codons = steps.map((step) => codonOf(step, options, checkpointed));
  const { dollars, seconds } = options.budget;
  const budget = {
    ...(dollars !== undefined && { maxDollars: dollars }),
    ...(seconds !== undefined && { maxTimeSeconds: seconds }),
  };
  const names = steps.map((step) => step.agentName).join(" → ");
  const hank: HankFileInput = {
    meta: { name: `loop: ${names}`, version: "1", description: describe(options) },
    hank: [
      {
        type: "loop",
        id: LOOP_ID,
        name: names,
        terminateOn: { type: "iterationLimit", limit: options.maxIterations },
        codons,
        ...(Object.keys(budget).length > 0 && { budget }),
      },
    ],
  };
  const codonTools = toolsByConfigId(steps, options);
  return {
    hank,
    steps,
    byConfigId: new Map(steps.map((step) => [step.configId, step])),
    ...(codonTools !== undefined && { codonTools }),
  };
}

function toolsByConfigId(
  steps: readonly LoopStep[],
  options: CheckedLoopOptions,
): Record<string, ToolSettings> | undefined {
  const entries = steps.flatMap((step) => {
    const tools = options.steps[step.index]?.tools;
    if (tools === undefined) return [];
    const settings: ToolSettings = {
      ...(tools.allow !== undefined && { allow: tools.allow }),
      ...(tools.deny !== undefined && { deny: tools.deny }),
    };
    return [[step.configId, settings] as const];
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

function codonOf(step: LoopStep, options: CheckedLoopOptions, checkpointed: boolean): CodonInput {
  const agent = options.steps[step.index];
  if (agent === undefined) throw new Error(`buildLoopHank: no agent for step ${step.index}`);
  const instructions = agent.instructions?.trim() ?? "";
  return {
    id: step.configId,
    name: agent.name,
    model: options.model ?? agent.model,
    continuationMode: "fresh",
    promptFile: step.promptFile,
    ...(instructions !== "" && { appendSystemPromptText: instructions }),
    ...(agent.description !== undefined && { description: agent.description }),
    ...(agent.env !== undefined && { env: agent.env }),
    ...(agent.idleTimeoutSeconds !== undefined && { shimIdleTimeout: agent.idleTimeoutSeconds }),
    ...(agent.retry !== undefined && { onFailure: "retry" as const, retryConfig: agent.retry }),
    ...(checkpointed && { checkpointedFiles: ["**"] }),
    ...(options.timeoutMs !== undefined && {
      budget: { maxTimeSeconds: options.timeoutMs / 1000, onExceeded: "fail" as const },
    }),
  };
}

/**
 * Under lifetime `"workflow"`, one session per agent: each step's codon is in its agent's session
 * group, so an agent listed twice is one subagent whose steps share a session (pooled by name).
 */
export function sessionGroups(steps: readonly LoopStep[]): Record<string, string> {
  return Object.fromEntries(steps.map((step) => [step.configId, step.agentName]));
}

/**
 * Codon ids from agent names: lower-case letters, digits and dashes; a name used twice (or one with
 * nothing usable) gets its 1-based position.
 */
export function stepIds(names: readonly string[]): string[] {
  const slugs = names.map((name) =>
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, ""),
  );
  const used = new Set<string>();
  return slugs.map((slug, index) => {
    const unique = slug !== "" && slugs.indexOf(slug) === slugs.lastIndexOf(slug);
    let id = unique ? slug : `${slug === "" ? "step" : slug}-${index + 1}`;
    while (used.has(id)) id = `${id}-${index + 1}`;
    used.add(id);
    return id;
  });
}

/**
 * Tool settings are part of what makes two calls the same loop: they are recorded as a digest (only
 * when an agent has some, so the description of a loop without any is what it always was).
 */
function describe(options: CheckedLoopOptions): string {
  const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);
  const tokens = options.budget.tokens === undefined ? "none" : String(options.budget.tokens);
  const tools = options.steps.map((agent) => agent.tools ?? null);
  const toolsNote = tools.every((entry) => entry === null)
    ? ""
    : `; tools sha256 ${sha(JSON.stringify(tools))}`;
  return `Written by loop(): lifetime ${options.lifetime}; token budget ${tokens}; input sha256 ${sha(options.input)}${toolsNote}.`;
}
