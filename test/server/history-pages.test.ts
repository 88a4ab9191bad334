import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { RunViewFold, type RunViewSnapshot, viewOf } from "../../src/journal/run-view.ts";
import { PAGE_EVENTS } from "../../src/server/history-pages.ts";
import { scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { hankOf, type ServedRun, serveHank, type TestClient } from "./support.ts";

/**
 * History paging (`history.page`): the newest events with the run view just before them, then older
 * pages on request; folding the view and the page gives the view of the whole journal.
 */

const runCompleted = (e: JournaledEvent) =>
  e.type === "state.transition" && e.data.transitionType === "RunCompleted";

interface Page {
  readonly view?: RunViewSnapshot;
  readonly events: JournaledEvent[];
  readonly hasOlder: boolean;
}

async function page(client: TestClient, data?: Record<string, unknown>): Promise<Page> {
  const mark = client.frames.length;
  client.send("history.page", data);
  const frame = await client.waitFor((f) => f.kind === "unjournaled" && f.type === "history.page", mark);
  assert.ok(frame.kind === "unjournaled");
  return frame.data as unknown as Page;
}

describe("history.page", () => {
  let served: ServedRun;
  before(async () => {
    const hank = hankOf([
      scriptedLoop("many", { type: "iterationLimit", limit: 150 }, [
        scriptedCodon("say", "@say hello\n@usage input=10 output=5"),
      ]),
    ]);
    served = await serveHank(hank, { stayOpen: true });
    const client = await served.connect("readonly");
    await client.waitForEvent("state.transition", runCompleted);
  });
  after(() => served.remove());

  it("sends the newest page with the view before it; the two fold into the whole journal's view", async () => {
    const journal = served.journal();
    assert.ok(journal.length > PAGE_EVENTS * 2, `a journal of ${journal.length} events spans pages`);
    const client = await served.connect("readonly");
    const newest = await page(client);
    assert.ok(newest.view !== undefined && newest.hasOlder);
    const first = newest.events[0];
    assert.equal(first?.seq, newest.view.seq + 1);
    assert.equal(newest.events.at(-1)?.seq, journal.length);
    assert.ok(newest.events.length < journal.length);
    const fold = RunViewFold.restore(newest.view);
    for (const event of newest.events) fold.apply(event);
    const whole = viewOf(journal);
    const paged = fold.view();
    assert.deepEqual(paged.state, whole.state);
    assert.deepEqual(paged.ending, whole.ending);
    assert.deepEqual(paged.counts, whole.counts);
    assert.equal(paged.costSource, whole.costSource);
    assert.deepEqual(paged.planSize, whole.planSize);
  });

  it("sends older pages before a seq, down to the first event", async () => {
    const journal = served.journal();
    const client = await served.connect("readonly");
    const newest = await page(client);
    const collected = [...newest.events];
    let hasOlder = newest.hasOlder;
    while (hasOlder) {
      const older = await page(client, { beforeSeq: collected[0]?.seq, limit: 400 });
      assert.ok(older.view === undefined);
      assert.ok(older.events.length > 0 && older.events.length <= 400);
      collected.unshift(...older.events);
      hasOlder = older.hasOlder;
    }
    assert.deepEqual(collected, journal);
  });

  it("leaves history.sync as it was: a client asking for the whole history gets it", async () => {
    const client = await served.connect("readonly");
    const mark = client.frames.length;
    client.send("history.sync", { batchSize: 1000 });
    await client.waitFor(
      (f) => f.kind === "unjournaled" && f.type === "history.batch" && f.data.hasMore === false,
      mark,
    );
    const events = client.frames
      .slice(mark)
      .flatMap((f) =>
        f.kind === "unjournaled" && f.type === "history.batch" ? (f.data.events as JournaledEvent[]) : [],
      );
    assert.deepEqual(events, served.journal());
  });
});
