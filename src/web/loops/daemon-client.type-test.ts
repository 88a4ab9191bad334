import type { z } from "zod";
import type { SuccessOf } from "../../events/daemon-route-types.ts";
import type { LoopRunSchema } from "../../events/loop-records.ts";
import { callDaemon, useDaemonData } from "./daemon-client.ts";

/**
 * Compile-time checks that the page's client is typed by the daemon's route table, not by hand:
 * `tsc -p src/web` (in `npm run check`) fails when a call the table refuses compiles, or when what a
 * call resolves to stops being the table's answer. Nothing imports this file; it never runs.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Equal<A, B>): Equal<A, B> => proof;

export async function clientTypeChecks(): Promise<void> {
  const detail = await callDaemon("getRun", { params: { id: "r1" } });
  same<typeof detail, SuccessOf<"getRun">>(true);
  same<(typeof detail)["run"], z.output<typeof LoopRunSchema>>(true);
  const started = await callDaemon("startRun", { params: { id: "demo" }, body: { idempotencyKey: "k" } });
  same<typeof started.outcome, "admitted" | "duplicate">(true);
  // @ts-expect-error a route the table does not have
  await callDaemon("deleteRun", { params: { id: "r1" } });
  // @ts-expect-error the run's id is a path parameter the route needs
  await callDaemon("getRun", {});
  // @ts-expect-error a command type the table does not list
  await callDaemon("sendCommand", { params: { id: "r1" }, body: { type: "explode" } });
  // @ts-expect-error a note's text is a string
  await callDaemon("addNote", { params: { id: "r1" }, body: { text: 42 } });
  // @ts-expect-error a cost is no limit: `set` takes only the table's limit keys
  await callDaemon("startRun", { params: { id: "demo" }, body: { set: { cost_usd: 5 } } });
}

export function HookTypeChecks(): void {
  const { data } = useDaemonData("listRuns", { query: { loop: "demo" } }, () => true);
  same<typeof data, SuccessOf<"listRuns"> | undefined>(true);
  // @ts-expect-error the stream's events are the log's entries: a `run.state` entry has `data.to`
  useDaemonData("listRuns", {}, (event) => event.data.nonsense === 1);
}
