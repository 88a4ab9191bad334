import type { PinnedContract } from "../model/contract.ts";
import type { GateVerdict } from "../model/generation-facts.ts";
import { generationKey } from "../model/idempotency.ts";
import type { LoopRunRecord } from "../store/store-records.ts";

/**
 * What the body, gates and hooks see of the loop, as environment variables. Agents get them (the
 * `HANKWEAVE_` overlay keeps them and also sets `LOOP_*` without the prefix), and the body's prompts
 * get the same values as template variables (`<%LOOP_GENERATION%>`, `<%LOOP_INBOX%>`...); scripts read
 * them directly. The key lets an agent make its external side effects idempotent; the previous
 * generation's verdicts and blocker ids say what the gates asked for.
 */
export interface LoopContext {
  readonly run: LoopRunRecord;
  readonly generation: number;
  /** The inbox handed to this generation, one attributed line per message. */
  readonly inbox: string;
  readonly item?: { readonly id: string; readonly key: string; readonly json: string };
  /** A watch tick's items, as a JSON array (every item, when the body is not fanned out). */
  readonly items?: string;
  /** The gates' verdicts of the generation before this one (none for the first). */
  readonly previousGates?: readonly GateVerdict[];
}

export function loopEnv(context: LoopContext): Record<string, string> {
  const { run, generation } = context;
  const contract: PinnedContract = run.contract;
  return {
    HANKWEAVE_LOOP_ID: run.loopId,
    HANKWEAVE_LOOP_RUN: run.id,
    HANKWEAVE_LOOP_KEY: context.item?.key ?? generationKey(run.key, generation),
    HANKWEAVE_LOOP_RUN_KEY: run.key,
    HANKWEAVE_LOOP_GENERATION: String(generation),
    HANKWEAVE_LOOP_GOAL: contract.goal,
    HANKWEAVE_LOOP_DONE: contract.definitionOfDone ?? "",
    HANKWEAVE_LOOP_INBOX: context.inbox,
    HANKWEAVE_LOOP_VERDICTS: (context.previousGates ?? [])
      .map((g) => `${g.gateId}: ${g.verdict}${g.summary === "" ? "" : ` (${g.summary})`}`)
      .join("\n"),
    HANKWEAVE_LOOP_BLOCKERS: [...new Set((context.previousGates ?? []).flatMap((g) => g.blockerIds))]
      .sort()
      .join(", "),
    ...(context.items !== undefined && { HANKWEAVE_LOOP_ITEMS: context.items }),
    ...(context.item !== undefined && {
      HANKWEAVE_LOOP_ITEM: context.item.json,
      HANKWEAVE_LOOP_ITEM_ID: context.item.id,
    }),
  };
}

/**
 * Variables only a driver may hold: where the store is (a PostgreSQL URL carries its password) and
 * anything of the daemon's. A body never gets them, under any mode: with the store or the daemon's
 * token it could approve its own escalations.
 */
export const DRIVER_ONLY_ENV = ["HANKWEAVE_LOOPS_STORE", "HANKWEAVE_LOOPS_DB"] as const;
const DRIVER_ONLY_PREFIX = "HANKWEAVE_DAEMON_";

/** The environment of a body: the driver's, less its own secrets, plus the loop variables. */
export function bodyEnv(
  processEnv: Readonly<Record<string, string | undefined>>,
  loop: Record<string, string>,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(processEnv)) {
    if ((DRIVER_ONLY_ENV as readonly string[]).includes(name) || name.startsWith(DRIVER_ONLY_PREFIX))
      continue;
    env[name] = value;
  }
  return { ...env, ...loop };
}

/** Drops every variable whose value holds `secret` (the daemon's token): a driver never passes it on. */
export function withoutSecret(
  env: Readonly<Record<string, string | undefined>>,
  secret: string,
): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => !value?.includes(secret)));
}

/** The environment of gates and hooks: the driver's PATH and home, plus the loop variables; no secrets. */
export function scriptEnv(
  processEnv: Readonly<Record<string, string | undefined>>,
  loop: Record<string, string>,
): Record<string, string> {
  const keep = ["PATH", "HOME", "LANG", "TMPDIR", "TZ"];
  const base: Record<string, string> = {};
  for (const name of keep) {
    const value = processEnv[name];
    if (value !== undefined) base[name] = value;
  }
  return { ...base, ...loop };
}
