import type { LoopEvent } from "../../events/loop-events.ts";
import { EXIT_USAGE } from "../../events/loop-run-states.ts";
import { TAMPER_EVENT } from "../../loops/coordinator/contract-guard.ts";
import type { LoopsContext } from "./loops-context.ts";
import { printJson } from "./loops-json.ts";
import { catalogText, lsText, showText } from "./loops-render.ts";

/**
 * The verbs of `hankweave loops` that only read the store (`ls`, `show`, `logs`): kept apart from the
 * verbs that start or drive runs, so they load no runner.
 */

export async function showVerb(context: LoopsContext, runId: string): Promise<number> {
  const run = await context.store.getRun(runId);
  if (run === undefined) return missingRun(context, runId);
  const generations = await context.store.generations(runId);
  const tamper = (await context.store.events(0, runId, 100_000)).find((e) => e.type === TAMPER_EVENT);
  context.io.stdout.write(
    context.json
      ? `${JSON.stringify({ run, generations, ...(tamper !== undefined && { tamper: tamper.data }) }, null, 2)}\n`
      : showText(run, generations, Date.now(), tamper?.data),
  );
  return 0;
}

export async function lsVerb(context: LoopsContext, loopId: string | undefined): Promise<number> {
  const runs = await context.store.listRuns({ ...(loopId !== undefined && { loopId }), limit: 200 });
  if (context.json) context.print(JSON.stringify(runs, null, 2));
  else context.io.stdout.write(lsText(runs, Date.now()) + catalogText(runs, Date.now()));
  return 0;
}

export async function logsVerb(context: LoopsContext, runId: string): Promise<number> {
  const events = await context.store.events(0, runId, 100_000);
  if (context.json) {
    printJson(context, { run: runId, events });
    return 0;
  }
  for (const event of events) context.print(logLine(event));
  return 0;
}

/** One entry of `loops logs`: an entry this version does not know shows its stored kind, marked. */
function logLine(event: LoopEvent): string {
  if (event.type === "unrecognized") {
    return `${event.at}  ${event.data.type} (not known to this version)  ${JSON.stringify(event.data.data)}`;
  }
  return `${event.at}  ${event.type}  ${JSON.stringify(event.data)}`;
}

/** The message and exit code of a run id the store does not hold. */
export function missingRun(context: LoopsContext, runId: string): number {
  context.warn(`No loop run ${runId} in ${context.dbPath}. List runs with \`hankweave loops ls\`.`);
  return EXIT_USAGE;
}
