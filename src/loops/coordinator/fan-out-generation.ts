import { join } from "node:path";
import { foldBodyEnds, foldTrees, foldVerdicts, overCeiling, parseItems } from "../model/fan-out.ts";
import type { GateVerdict, GenerationFacts } from "../model/generation-facts.ts";
import { generationHash } from "../model/generation-hash.ts";
import { itemKey } from "../model/idempotency.ts";
import type { WatchItem } from "../model/watch.ts";
import type { GenerationRecord, LoopRunRecord } from "../store/store-records.ts";
import { checkPins, type RunEnd, tamperEnd } from "./contract-guard.ts";
import type { DriverDeps } from "./driver-context.ts";
import { bodyEnv, loopEnv, scriptEnv } from "./loop-env.ts";
import { runArgv } from "./run-argv.ts";
import { type BodyReport, workspaceOf } from "./run-body.ts";
import { continueGates, type GenerationDeps, type GenerationResult, startBody } from "./run-generation.ts";
import { sandboxWrap } from "./sandbox-wrap.ts";
import { tickOf } from "./watch-step.ts";

const ITEMS_EVENT = "fan_out.items";

/**
 * The items a fanned-out run works on, fixed for its whole life (so every item keeps its idempotency
 * key): a watch run's tick items, else what the `[fan_out] items` command printed before generation 1,
 * stored as an event. Undefined when the run does not fan out or has no items yet.
 */
export async function storedItems(deps: DriverDeps, run: LoopRunRecord): Promise<WatchItem[] | undefined> {
  if (run.contract.fanOut === null) return undefined;
  if (run.contract.kind === "watch") return (await tickOf(deps, run.id))?.items.slice();
  const event = (await deps.store.events(0, run.id)).find((e) => e.type === ITEMS_EVENT);
  return event?.data.items.slice();
}

/**
 * Before generation 1 of a fanned-out run: lists the items (a failing or malformed items command fails
 * the run: the body has nothing to run on), stores them, and checks them against the ceiling. Returns
 * the outcome that ends the run, or undefined to go on.
 */
export async function prepareItems(
  deps: DriverDeps,
  token: number,
  run: LoopRunRecord,
): Promise<RunEnd | undefined> {
  const fanOut = run.contract.fanOut;
  if (fanOut === null) return undefined;
  let items = await storedItems(deps, run);
  const at = new Date(deps.clock.now()).toISOString();
  if (items === undefined) {
    const tamper = checkPins(run.contract);
    if (tamper !== undefined) return tamperEnd(tamper);
    const result = await runArgv({
      argv: sandboxWrap(run, deps.privateDirs)(fanOut.items, run.dir, false),
      cwd: run.dir,
      env: scriptEnv(deps.env, loopEnv({ run, generation: 0, inbox: "" })),
      timeoutMs: 600_000,
    });
    const parsed =
      result.kind === "exited" && result.code === 0
        ? parseItems(result.stdout)
        : { ok: false as const, message: `the items command did not succeed (${result.kind})` };
    if (!parsed.ok) {
      await deps.store.appendEvent(run.id, token, "fan_out.failed", { message: parsed.message }, at);
      deps.report?.(`fan-out: ${parsed.message}`);
      return { outcome: { state: "failed", cause: "body_failed" } };
    }
    items = parsed.items;
    await deps.store.appendEvent(run.id, token, ITEMS_EVENT, { items }, at);
  }
  if (!overCeiling(items, fanOut.ceiling)) return undefined;
  deps.report?.(`fan-out: ${items.length} items is more than the ceiling of ${fanOut.ceiling}`);
  return { outcome: { state: "exhausted", cause: "fan_out_ceiling" } };
}

interface ItemResult {
  readonly id: string;
  readonly body: BodyReport;
  readonly verdicts: readonly GateVerdict[];
  readonly tokens: number | null;
  readonly runEnd?: RunEnd;
}

/**
 * One generation of a fanned-out run: the body once per item, `width` at a time, each on its own
 * execution under `<run>/items/<id>/` (carried over from one generation to the next), then the gates
 * once per item in that item's workspace; the results folded into one generation (the worst item wins).
 */
export async function runFanOutGeneration(
  run: LoopRunRecord,
  started: GenerationRecord,
  deps: GenerationDeps,
  items: readonly WatchItem[],
): Promise<GenerationResult> {
  const width = Math.max(1, run.contract.limits.fan_out_width);
  const results: ItemResult[] = [];
  const queue = [...items];
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift())
      results.push(await runItem(run, started, deps, item));
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  results.sort((a, b) => a.id.localeCompare(b.id));
  const runEnd = results.find((r) => r.runEnd !== undefined)?.runEnd;
  const body = foldBodyEnds(results.map((r) => r.body.end));
  const gates =
    body.kind === "completed" ? foldVerdicts(results.map((r) => ({ id: r.id, verdicts: r.verdicts }))) : [];
  const workspaceTree = foldTrees(results.map((r) => ({ id: r.id, tree: r.body.workspaceTree })));
  const facts: GenerationFacts = {
    number: started.number,
    body,
    gates,
    hash:
      body.kind === "completed" ? generationHash(run.contract.hashFields, { workspaceTree, gates }) : null,
  };
  const record: GenerationRecord = {
    ...started,
    state: body.kind === "completed" ? "completed" : body.kind,
    facts,
    layers: results.flatMap((r) => r.body.layers.map((l) => ({ ...l, codonId: `${r.id}/${l.codonId}` }))),
    bodyRunId: results[0]?.body.bodyRunId ?? null,
    workspaceTree,
    tokens: results.reduce<number | null>(
      (sum, r) => (sum === null || r.tokens === null ? null : sum + r.tokens),
      0,
    ),
    costUsd: results.reduce((sum, r) => sum + r.body.costUsd, 0),
    endedAt: new Date(deps.clock.now()).toISOString(),
  };
  return runEnd === undefined ? { record } : { record, runEnd };
}

async function runItem(
  run: LoopRunRecord,
  started: GenerationRecord,
  deps: GenerationDeps,
  item: WatchItem,
): Promise<ItemResult> {
  const itemDir = join(run.dir, "items", item.id);
  const vars = {
    ...deps.loopVars,
    HANKWEAVE_LOOP_KEY: itemKey(run.key, item.id),
    HANKWEAVE_LOOP_ITEM: JSON.stringify(item),
    HANKWEAVE_LOOP_ITEM_ID: item.id,
  };
  const body = await startBody(run.contract, itemDir, started.number, bodyEnv(deps.processEnv, vars), deps);
  if (body.end.kind !== "completed") return { id: item.id, body, verdicts: [], tokens: body.tokens };
  const itemDeps: GenerationDeps = {
    ...deps,
    scriptEnv: { ...deps.scriptEnv, ...vars, HANKWEAVE_LOOP_WORKSPACE: workspaceOf(itemDir) },
  };
  const record = { ...started, tokens: body.tokens, facts: { ...started.facts, gates: [] } };
  const gated = await continueGates(run.contract, record, itemDir, itemDeps, new Set(), body.workspaceTree);
  return {
    id: item.id,
    body,
    verdicts: gated.record.facts.gates,
    tokens: gated.record.tokens,
    ...(gated.runEnd !== undefined && { runEnd: gated.runEnd }),
  };
}
