import { randomUUID } from "node:crypto";
import { formatJsonPath } from "../hank/issues.ts";
import {
  type AdmissionReport,
  admissionReport,
  admitRun,
  bodyFacts,
  type LimitConfig,
  type LoopStore,
  loadDefinition,
} from "../loops/index.ts";
import type { Clock } from "../util/clock.ts";
import type { StartForm } from "./start-form.ts";

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

export type LintAnswer =
  | { readonly status: 404; readonly body: { readonly error: string } }
  | {
      readonly status: 200;
      readonly body: {
        readonly loopId: string;
        readonly file: string;
        readonly issues: readonly {
          readonly path: string;
          readonly message: string;
          readonly hint: string;
        }[];
        readonly report: AdmissionReport | null;
      };
    };

export async function lintRegistered(store: LoopStore, loopId: string): Promise<LintAnswer> {
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
  form: StartForm,
): Promise<{ readonly status: number; readonly body: Record<string, unknown> }> {
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
    ...form,
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
  return {
    status: outcome.kind === "admitted" ? 201 : 200,
    body: {
      outcome: outcome.kind,
      run: outcome.run,
      ...(outcome.kind === "admitted" && { notices: outcome.notices, clamped: outcome.clamped }),
    },
  };
}
