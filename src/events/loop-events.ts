import { z } from "zod";
import {
  AdmissionWarningSchema,
  ALL_CAUSES,
  ALL_PARK_REASONS,
  EndLayersSchema,
  GateVerdictSchema,
  list,
  RunStateSchema,
  TerminalCauseSchema,
} from "./loop-records.ts";
import { TERMINAL_STATES } from "./loop-run-states.ts";
import { GENERATION_STATES, HOOK_ANSWERS, HOOK_NAMES, LIVE_MOVES, TRIGGER_KINDS } from "./loop-words.ts";

/**
 * The Loops event log: every entry the daemon's store appends for a run, one schema per kind. Writers
 * (the store, the coordinator) name a kind and its data and the compiler checks the pair; readers (the
 * event stream, the web pages, `hankweave loops logs`) switch on `type` and get the data typed.
 *
 * Contract: the log is append-only and shared (several daemons, perhaps of different versions, may
 * write one PostgreSQL store), so a reader never fails on an entry it does not know: `decodeLoopEvent`
 * turns it into an `unrecognized` entry that keeps the stored kind and data as they were.
 */

/** Why a run moved: a live move, a park reason or a terminal cause (the state table's `via`). */
const ViaSchema = z.enum([...LIVE_MOVES, ...ALL_PARK_REASONS, ...ALL_CAUSES]);

/** An item a watch source or a fan-out items command listed: an id, and whatever else it said. */
const WatchItemSchema = z.looseObject({ id: z.string() });

/** The data of each kind of entry. */
const LOOP_EVENT_DATA = {
  /** The run was stored: its first state, key and trigger, and what admission warned about. */
  "run.admitted": z.object({
    state: RunStateSchema,
    key: z.string(),
    trigger: z.enum(TRIGGER_KINDS),
    notices: list(AdmissionWarningSchema),
  }),
  /** A move of the state table, written in the transaction that made it. */
  "run.state": z.object({ from: RunStateSchema, to: RunStateSchema, via: ViaSchema }),
  /** An operator command settled: `applied`, or `refused: <why>`. */
  "run.command": z.object({ id: z.number(), outcome: z.string() }),
  /** The run ended: its terminal state, cause and end layers (written with the last move). */
  "run.ended": z.object({
    state: z.enum(TERMINAL_STATES),
    cause: TerminalCauseSchema,
    layers: EndLayersSchema,
  }),
  /** A delivery Loop's pre-check ran every gate before generation 1. */
  "run.precheck": z.object({ clean: z.boolean(), gates: list(GateVerdictSchema) }),
  /** A pinned file changed after admission: which, and its expected and found hashes. */
  "run.contract_tampered": z.object({
    label: z.string(),
    path: z.string(),
    expected: z.string(),
    /** The hash found, or `missing`. */
    found: z.string(),
  }),
  "generation.started": z.object({ number: z.number(), key: z.string(), inbox: list(z.number()) }),
  "generation.ended": z.object({
    number: z.number(),
    state: z.enum(GENERATION_STATES),
    gates: list(GateVerdictSchema),
    hash: z.string().nullable(),
    tokens: z.number().nullable(),
  }),
  /**
   * A hook of the contract ran (an absent hook runs nothing and is not logged): for which generation
   * (the number it would get, for a `generation_pre`), when it started (the entry's `at` is its end)
   * and how it answered. Its message is not logged here: the run's end says why it stopped.
   */
  "hook.ran": z.object({
    hook: z.enum(HOOK_NAMES),
    generation: z.number(),
    startedAt: z.string(),
    answer: z.enum(HOOK_ANSWERS),
  }),
  /** The items a fanned-out run works on, fixed for its whole life. */
  "fan_out.items": z.object({ items: list(WatchItemSchema) }),
  "fan_out.failed": z.object({ message: z.string() }),
  /** A watch poll that found work: its items and the source's new cursor. */
  "watch.tick": z.object({ items: list(WatchItemSchema), cursor: z.string().nullable() }),
  "watch.poll_failed": z.object({ message: z.string() }),
  /** No next tick will be armed, and why. */
  "watch.disarmed": z.object({ why: z.string() }),
} as const;

export type LoopEventType = keyof typeof LOOP_EVENT_DATA;
export const LOOP_EVENT_TYPES = Object.keys(LOOP_EVENT_DATA) as readonly LoopEventType[];

/** What a writer hands the store: a kind and its data, checked against each other. */
export type LoopEventInput = {
  [T in LoopEventType]: { readonly type: T; readonly data: z.input<(typeof LOOP_EVENT_DATA)[T]> };
}[LoopEventType];

/** The data a writer gives for kind `T`. */
export type LoopEventDataInput<T extends LoopEventType> = z.input<(typeof LOOP_EVENT_DATA)[T]>;

/** Where and when an entry stands in the log: `seq` orders every run's entries together. */
interface Stamp {
  readonly seq: number;
  readonly runId: string;
  readonly at: string;
}

/** An entry this version does not know (a newer daemon's kind, or data that no longer parses). */
interface UnrecognizedLoopEvent extends Stamp {
  readonly type: "unrecognized";
  readonly data: { readonly type: string; readonly data: unknown };
}

type KnownLoopEvent = {
  [T in LoopEventType]: Stamp & { readonly type: T; readonly data: z.output<(typeof LOOP_EVENT_DATA)[T]> };
}[LoopEventType];

/** One entry of the log as a reader gets it. */
export type LoopEvent = KnownLoopEvent | UnrecognizedLoopEvent;

/** The entry of kind `T`. */
type LoopEventOf<T extends LoopEvent["type"]> = Extract<LoopEvent, { readonly type: T }>;

function isKnownType(type: string): type is LoopEventType {
  return Object.hasOwn(LOOP_EVENT_DATA, type);
}

/** A stored row (data already JSON-parsed) as a typed entry; never throws. */
export function decodeLoopEvent(row: Stamp & { readonly type: string; readonly data: unknown }): LoopEvent {
  const stamp = { seq: row.seq, runId: row.runId, at: row.at };
  if (isKnownType(row.type)) {
    const parsed = LOOP_EVENT_DATA[row.type].safeParse(row.data);
    if (parsed.success) return { ...stamp, type: row.type, data: parsed.data } as KnownLoopEvent;
  }
  return { ...stamp, type: "unrecognized", data: { type: row.type, data: row.data } };
}

/** Type guard for one kind, for `find` and `filter` over the log. */
export function isLoopEvent<T extends LoopEvent["type"]>(type: T) {
  return (event: LoopEvent): event is LoopEventOf<T> => event.type === type;
}
