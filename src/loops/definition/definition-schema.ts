import { z } from "zod";
import { LOOP_KINDS } from "../../events/loop-words.ts";
import { SandboxSettingSchema } from "../model/sandbox-setting.ts";

/**
 * The `<id>.loop.toml` format: a body (a hank) and a contract (goal, limits, budgets, no-progress
 * rules, gates, hooks, trigger). The zod schema is the single source of truth: validation and the JSON
 * Schema for editors both come from it. Limits left out here take the per-kind defaults when a run is
 * admitted (see `resolveLimits`). There is deliberately no cost field anywhere: cost is a meter.
 */

/** A command line, run without a shell: the program and its arguments. */
const Argv = z
  .array(z.string().min(1))
  .min(1)
  .describe("a command as an argv list, run without a shell: [program, ...args]");

const Count = z.int().min(0);
const Positive = z.int().min(1);

const GateBase = {
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, "A gate id uses lowercase letters, digits, '-' and '_'")
    .describe("the gate's id, unique in the definition"),
  /** Generations this gate may fail before the run ends `exhausted: gate_max_revisions`. */
  max_revisions: Positive.optional().describe("generations this gate may fail before the run is exhausted"),
};

export const CommandGate = z.strictObject({
  ...GateBase,
  kind: z.literal("command"),
  run: Argv.describe(
    "argv run in the workspace; exit 0 passes, 3 means blocked, anything else asks for a revision",
  ),
  timeout_sec: Positive.default(600).describe("a gate running longer is a gate error"),
});

export const JudgeGate = z.strictObject({
  ...GateBase,
  kind: z.literal("judge"),
  model: z.string().min(1).describe("the model that judges, through any harness (scripted for a dry run)"),
  instructions: z.string().min(1).describe("a file beside the definition: what the judge checks"),
  timeout_sec: Positive.default(600),
});

export const HumanGate = z.strictObject({
  ...GateBase,
  kind: z.literal("human"),
  prompt: z.string().min(1).optional().describe("what the approver is asked"),
});

export const Gate = z.discriminatedUnion("kind", [CommandGate, JudgeGate, HumanGate]);

export const HASH_FIELDS = ["workspace", "gates"] as const;

export const Budget = z.strictObject({
  tokens: Count.optional().describe("input + output + cache tokens of bodies and judges; 0 = off"),
  wall_clock_sec: Count.optional().describe("running time only (never queued, parked or down); 0 = off"),
  on_exceeded: z.enum(["halt", "escalate"]).default("halt"),
});

export const NoProgress = z.strictObject({
  window: Positive.optional().describe("generations without progress before the run is stalled"),
  hash_fields: z.array(z.enum(HASH_FIELDS)).min(1).optional(),
  inactivity_sec: Positive.optional(),
  failure_breaker: Positive.optional().describe("consecutive failed generations before the run is stalled"),
});

export const Contract = z.strictObject({
  goal: z.string().min(1),
  definition_of_done: z.string().min(1).optional(),
  iteration_cap: Count.optional().describe("generations; 0 = unbounded"),
  budget: Budget.optional(),
  no_progress: NoProgress.optional(),
});

export const Hooks = z.strictObject({
  generation_pre: Argv.optional().describe("exit 0 allows the generation, 1-125 denies it (failed)"),
  gate_pre: Argv.optional().describe("exit 0 allows the gates, 1-125 denies them (blocked)"),
});

export const FanOut = z.strictObject({
  items: Argv.describe('prints a JSON array of {"id": ...} items, one body run each'),
  width: Positive.optional(),
});

export const Trigger = z.strictObject({
  schedule: z.string().min(1).optional().describe("cron expression (croner)"),
  timezone: z.string().min(1).default("UTC"),
  catch_up: z.enum(["skip", "coalesce"]).default("skip"),
  concurrency: z.enum(["forbid", "allow", "queue"]).default("forbid"),
});

export const Watch = z.strictObject({
  source: Argv.describe('prints {"items": [{"id": ...}], "cursor": "..."}'),
  every_sec: Positive,
  silence_window_sec: Positive.optional(),
});

export const LoopDefinitionSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9-]+$/, "A loop id uses lowercase letters, digits and '-'")
    // It names the Loop's directories, its runs' branches and its metric labels.
    .max(64),
  name: z.string().min(1),
  kind: z.enum(LOOP_KINDS).default("delivery"),
  owner: z.string().min(1).optional().describe("who answers for the loop"),
  cadence: z.string().min(1).optional().describe('"manual" or a few words, when there is no trigger'),
  escalation: Argv.optional().describe("run with the run as JSON on stdin when a run parks or ends badly"),
  hank: z.string().min(1).describe("the body: a hank directory or hank.json, outside the workspace"),
  data: z.string().min(1).optional().describe("the body's data source"),
  model: z.string().min(1).optional().describe("every body codon's model (as -m), e.g. scripted"),
  on_interrupted: z.enum(["resume", "ask"]).default("resume"),
  contract: Contract,
  gates: z.array(Gate).default([]),
  hooks: Hooks.optional(),
  fan_out: FanOut.optional(),
  trigger: Trigger.optional(),
  watch: Watch.optional(),
  sandbox: SandboxSettingSchema.optional().describe("run the body, gates and hooks in bubblewrap"),
});

export type LoopDefinitionInput = z.input<typeof LoopDefinitionSchema>;
export type ParsedDefinition = z.output<typeof LoopDefinitionSchema>;
export type GateDefinition = z.output<typeof Gate>;
export type LoopKind = ParsedDefinition["kind"];
export type HashField = (typeof HASH_FIELDS)[number];
