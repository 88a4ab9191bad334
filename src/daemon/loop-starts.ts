import { randomUUID } from "node:crypto";
import type { ParsedRequest } from "../events/daemon-route-types.ts";
import { formatJsonPath } from "../hank/issues.ts";
import {
  admissionReport,
  admitRun,
  bodyFacts,
  type LimitConfig,
  type LoopStore,
  loadDefinition,
} from "../loops/index.ts";
import type { Clock } from "../util/clock.ts";
import type { Reply } from "./api-types.ts";

/**
 * The catalog's two actions on a registered Loop, for the HTTP API: lint its definition (validation
 * issues, then the admission table) and start a run of it with an idempotency key. Both read the
 * definition file the Loop was registered from, as it is now.
 */

export interface StartDeps {
  readonly store: LoopStore;
  /** The loops home: each run gets `<home>/runs/<run id>/`. */
  readonly home: string;
  readonly clock: Clock;
  readonly limitConfig: LimitConfig;
}

export async function lintRegistered(store: LoopStore, loopId: string): Promise<Reply<"lintLoop">> {
  const loop = (await store.registeredLoops()).find((registered) => registered.loopId === loopId);
  if (loop === undefined) return { status: 404, body: { error: `no registered loop ${loopId}` } };
  const loaded = loadDefinition(loop.file);
  if (!loaded.ok) {
    const issues = loaded.issues.map((issue) => ({
      path: formatJsonPath(issue.path),
      message: issue.message,
      hint: issue.hint,
    }));
    return { status: 200, body: { loopId, file: loop.file, issues, report: null } };
  }
  const report = admissionReport(loaded.definition, bodyFacts(loaded.definition));
  return { status: 200, body: { loopId, file: loop.file, issues: [], report } };
}

/**
 * 201 admitted, 200 duplicate (the key's run), 422 refused by admission (with the admission table),
 * 400 for a request admission cannot take (an empty admit-anyway reason, a loosening override), 404.
 */
export async function startRegistered(
  deps: StartDeps,
  loopId: string,
  form: ParsedRequest<"startRun">["body"],
): Promise<Reply<"startRun">> {
  const loop = (await deps.store.registeredLoops()).find((registered) => registered.loopId === loopId);
  if (loop === undefined) return { status: 404, body: { error: `no registered loop ${loopId}` } };
  const loaded = loadDefinition(loop.file);
  if (!loaded.ok) {
    return { status: 400, body: { error: `${loop.file} has errors: run hankweave loops lint ${loop.file}` } };
  }
  const outcome = await admitRun({
    store: deps.store,
    definition: loaded.definition,
    home: deps.home,
    clock: deps.clock,
    newId: () => `${loopId}-${randomUUID().slice(0, 8)}`,
    trigger: "manual",
    // An empty key is no key: the run gets one derived from its admission time.
    ...(form.idempotencyKey !== undefined &&
      form.idempotencyKey !== "" && { idempotencyKey: form.idempotencyKey }),
    ...(form.admitAnyway !== undefined && { admitAnyway: form.admitAnyway }),
    ...(form.set !== undefined && { overrides: form.set }),
    limitConfig: deps.limitConfig,
  });
  if (outcome.kind === "refused") {
    const badRequest = outcome.code === "empty-admit-reason" || outcome.code === "loosened-limit";
    return {
      status: badRequest ? 400 : 422,
      body: {
        outcome: "refused",
        code: outcome.code,
        error: outcome.message,
        report: outcome.report ?? null,
      },
    };
  }
  if (outcome.kind === "duplicate") return { status: 200, body: { outcome: "duplicate", run: outcome.run } };
  const { run, notices, clamped } = outcome;
  return { status: 201, body: { outcome: "admitted", run, notices, clamped } };
}
