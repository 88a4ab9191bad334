import { realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { z } from "zod";
import type { JournaledEvent } from "../events/index.ts";
import type { JsonPath } from "../hank/issues.ts";
import type { TracingOptions } from "../observability/index.ts";
import type { Clock } from "../util/clock.ts";
import { AGENT_FIELD_FIXES, AGENT_FIELDS, type Agent, AgentSchema } from "./agent.ts";
import { type ArgumentIssue, issuesOf, WorkflowArgumentError } from "./workflow-argument-error.ts";
import {
  LIFETIMES,
  type Lifetime,
  type Result,
  type WorkflowBudget,
  type WorkflowOptions,
  type WorkflowResult,
} from "./workflow-types.ts";

/**
 * Decides whether the loop is done, from the last step's result and the 1-based iteration number.
 * May be async: the judge is often a test run or a build, not a regex.
 */
export type UntilPredicate = (result: Result, iteration: number) => boolean | Promise<boolean>;

/** The cycle: what runs, on what, and the two guards that end it. */
export type LoopOptions = WorkflowOptions & {
  /** Agents run in order, once per iteration. Output flows from one to the next. */
  readonly steps: readonly Agent[];
  /** Task given to the first step of the first iteration. */
  readonly input: string;
  /** Stopping criterion, evaluated on the last step of each iteration. Omit it to run `maxIterations` times. */
  readonly until?: UntilPredicate;
  /**
   * Hard cap on iterations. Defaults to 5, and must be at least 1: an iteration is a discrete,
   * expensive unit, and "loop forever" must not be reachable by forgetting an argument.
   */
  readonly maxIterations?: number;
};

/**
 * Why the loop ended: `until` said yes, the cap was reached, a step failed, the caller cancelled, a
 * budget ran out, or the run could not start.
 */
export type LoopEndCause = "until" | "max-iterations" | "failed" | "aborted" | "budget" | "refused";

/** A `WorkflowResult`, plus whether the bar was actually reached. */
export type LoopResult = WorkflowResult & {
  /** Iterations actually run (the last one possibly cut short), including the one that satisfied `until`. */
  readonly iterations: number;
  /**
   * Whether `until` was satisfied; without `until`, whether every one of the `maxIterations` iterations
   * ran to its end. Kept apart from `ok`: `ok` says the last step ran without error, `converged` says
   * the work reached the bar. A loop that burns through its iterations is `ok: true, converged: false`.
   */
  readonly converged: boolean;
  readonly endCause: LoopEndCause;
};

export const DEFAULT_MAX_ITERATIONS = 5;

/** Arguments once checked, with defaults applied and paths made absolute. */
export interface CheckedLoopOptions {
  readonly steps: readonly z.output<typeof AgentSchema>[];
  readonly input: string;
  readonly until?: UntilPredicate;
  readonly maxIterations: number;
  readonly lifetime: Lifetime;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly budget: WorkflowBudget;
  readonly onEvent?: (event: JournaledEvent) => void;
  readonly durable?: { readonly dir: string };
  readonly model?: string;
  readonly clock?: Clock;
  readonly tracing?: TracingOptions;
}

const isFunction = (value: unknown): boolean => typeof value === "function";
const isClock = (value: unknown): boolean =>
  typeof value === "object" &&
  value !== null &&
  ["now", "setTimeout", "clearTimeout"].every(
    (key) => typeof (value as Record<string, unknown>)[key] === "function",
  );

const OptionsSchema = z.strictObject({
  steps: z.array(AgentSchema).min(1, "a loop needs at least one step"),
  input: z.string().refine((text) => text.trim() !== "", "the first step needs a non-empty input"),
  until: z.custom<UntilPredicate>(isFunction, "must be a function").optional(),
  maxIterations: z.int().min(1, "must be at least 1").optional(),
  lifetime: z.enum(LIFETIMES).optional(),
  signal: z.instanceof(AbortSignal).optional(),
  timeoutMs: z.number().positive().finite().optional(),
  cwd: z.string().min(1).optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
  budget: z
    .strictObject({
      tokens: z.int().positive().optional(),
      dollars: z.number().positive().finite().optional(),
      seconds: z.number().positive().finite().optional(),
    })
    .optional(),
  onEvent: z.custom<(event: unknown) => void>(isFunction, "must be a function").optional(),
  durable: z.strictObject({ dir: z.string().min(1) }).optional(),
  model: z.string().trim().min(1).optional(),
  clock: z.custom<Clock>(isClock, "must be a Clock (now, setTimeout, clearTimeout)").optional(),
  tracing: z
    .custom<TracingOptions>((value) => typeof value === "object" && value !== null, "must be an object")
    .optional(),
});

const FIXES: Readonly<Record<string, string>> = {
  steps: "Pass a non-empty array of agents ({ name, model, instructions? }).",
  input: "Pass the task for the first step as a non-empty string.",
  until: "Pass (result, iteration) => boolean | Promise<boolean>, or leave it out.",
  maxIterations: "Pass a whole number of at least 1 (default 5).",
  lifetime: 'Pass "task" (fresh sessions) or "workflow" (one session per agent).',
  signal: "Pass an AbortSignal (new AbortController().signal).",
  timeoutMs: "Pass a positive number of milliseconds, or leave it out for no deadline.",
  cwd: "Pass the path of an existing directory.",
  env: "Pass an object of string values.",
  budget: "Pass { tokens?, dollars?, seconds? } with positive numbers (tokens: a whole number).",
  onEvent: "Pass (event) => void.",
  durable: "Pass { dir: <directory> }.",
  model: "Pass a model id, or leave it out to use each agent's own.",
  clock: "Pass a Clock (systemClock() or a fake clock), or leave it out.",
  tracing: "Pass { tracerProvider?, enabled?, parent? }, or leave it out.",
};

function fixOf(path: JsonPath): string {
  const [top, , field] = path;
  if (top === "steps" && typeof field === "string") {
    return AGENT_FIELD_FIXES[field] ?? `Remove it; an agent has ${AGENT_FIELDS.join(", ")}.`;
  }
  return FIXES[String(top)] ?? `Remove it; the options are ${Object.keys(OptionsSchema.shape).join(", ")}.`;
}

/**
 * Checks every argument before anything runs and throws `WorkflowArgumentError` listing each problem
 * with the argument's name and the fix; returns the options with defaults applied.
 */
export function checkLoopOptions(options: unknown, where = "loop()"): CheckedLoopOptions {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) throw new WorkflowArgumentError(where, issuesOf("options", parsed.error, fixOf));
  const value = parsed.data;
  const issues = [
    ...duplicateAgents(value.steps, value.lifetime ?? "task"),
    ...missingDirectory(value.cwd),
    ...durableInsideCwd(value.cwd, value.durable?.dir),
  ];
  if (issues.length > 0) throw new WorkflowArgumentError(where, issues);
  return {
    steps: value.steps,
    input: value.input,
    ...(value.until !== undefined && { until: value.until }),
    maxIterations: value.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    lifetime: value.lifetime ?? "task",
    ...(value.signal !== undefined && { signal: value.signal }),
    ...(value.timeoutMs !== undefined && { timeoutMs: value.timeoutMs }),
    ...(value.cwd !== undefined && { cwd: resolve(value.cwd) }),
    env: value.env ?? process.env,
    budget: budgetOf(value.budget),
    ...(value.onEvent !== undefined && { onEvent: value.onEvent }),
    ...(value.durable !== undefined && { durable: { dir: resolve(value.durable.dir) } }),
    ...(value.model !== undefined && { model: value.model }),
    ...(value.clock !== undefined && { clock: value.clock }),
    ...(value.tracing !== undefined && { tracing: value.tracing }),
  };
}

function budgetOf(
  budget:
    | { tokens?: number | undefined; dollars?: number | undefined; seconds?: number | undefined }
    | undefined,
): WorkflowBudget {
  return {
    ...(budget?.tokens !== undefined && { tokens: budget.tokens }),
    ...(budget?.dollars !== undefined && { dollars: budget.dollars }),
    ...(budget?.seconds !== undefined && { seconds: budget.seconds }),
  };
}

/**
 * Under lifetime `"workflow"` an agent keeps one session, pooled by its name: an agent listed twice is
 * one subagent whose two steps share that session. Two different agents under one name cannot share
 * one (another model, other instructions or tools), so that is refused.
 */
function duplicateAgents(steps: readonly Agent[], lifetime: Lifetime): ArgumentIssue[] {
  if (lifetime !== "workflow") return [];
  const seen = new Map<string, number>();
  const issues: ArgumentIssue[] = [];
  for (const [index, step] of steps.entries()) {
    const first = seen.get(step.name);
    if (first === undefined) seen.set(step.name, index);
    else if (!sameAgent(steps[first], step))
      issues.push({
        argument: `options.steps[${index}]`,
        message: `agent "${step.name}" is also options.steps[${first}] with another model, instructions or tools; under lifetime "workflow" one name is one subagent with one session.`,
        fix: 'Pass the same agent object for both steps (one subagent), give this one another name, or use lifetime "task".',
      });
  }
  return issues;
}

function sameAgent(a: Agent | undefined, b: Agent): boolean {
  const shape = (agent: Agent | undefined) =>
    JSON.stringify([agent?.model, agent?.instructions, agent?.tools, agent?.env]);
  return shape(a) === shape(b);
}

/**
 * A durable directory inside `cwd` would put the loop's own files (its hank, inputs, journal and
 * workspace) into the data the agents read, so the data would change under every step; refused before
 * anything is written.
 */
function durableInsideCwd(cwd: string | undefined, dir: string | undefined): ArgumentIssue[] {
  if (cwd === undefined || dir === undefined) return [];
  const target = resolve(dir);
  const roots = new Set([resolve(cwd), realPathOr(resolve(cwd))]);
  const inside = [...roots].some((root) => target === root || target.startsWith(`${root}${sep}`));
  if (!inside) return [];
  return [
    {
      argument: "options.durable.dir",
      message: `${target} is inside options.cwd (${resolve(cwd)}), which the agents read as their data: the loop's own files would change it.`,
      fix: `Choose a directory outside cwd, e.g. ${join(dirname(resolve(cwd)), `${basename(resolve(cwd))}-loop`)}.`,
    },
  ];
}

function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function missingDirectory(cwd: string | undefined): ArgumentIssue[] {
  if (cwd === undefined) return [];
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (isDirectory) return [];
  return [
    {
      argument: "options.cwd",
      message: `${resolve(cwd)} is not an existing directory.`,
      fix: FIXES.cwd ?? "",
    },
  ];
}
