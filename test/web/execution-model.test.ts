import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../../src/events/index.ts";
import { readSince } from "../../src/journal/index.ts";
import { RunViewFold, type RunViewSnapshot } from "../../src/journal/run-view.ts";
import { hankOf, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { diffStats, ExecutionModel } from "../../src/web/execution/execution-model.ts";
import { serveHank } from "../server/support.ts";

/** The page's fold of a real journal (a scripted run), without a browser. */
async function journalOf(hank: unknown): Promise<JournaledEvent[]> {
  const run = await serveHank(hank, { headless: true });
  try {
    await run.host.ended;
    return readSince(`${run.exec}/.hankweave/events/events.jsonl`, 0).events;
  } finally {
    await run.remove();
  }
}

describe("web: the execution page's model", () => {
  it("folds a loop run into codon rows, iteration rows, usage and the outcome; each event once", async () => {
    const events = await journalOf(
      hankOf([
        scriptedCodon("plan", "@write notes.txt hi\n@usage input=10 output=5"),
        scriptedLoop("fix", { type: "iterationLimit", limit: 2 }, [scriptedCodon("step", "@say working")]),
      ]),
    );
    const model = new ExecutionModel();
    for (const event of events) model.apply(event);
    for (const event of events.slice(0, 20)) model.apply(event);
    assert.deepEqual(
      model.timeline.map((entry) =>
        entry.kind === "codon"
          ? `${entry.codon.id}:${entry.codon.status}`
          : `iteration ${entry.iteration.iteration}`,
      ),
      ["plan:completed", "step#0:completed", "iteration 0", "step#1:completed", "iteration 1"],
    );
    assert.deepEqual(model.outcome, { kind: "completed", cause: "All codons completed" });
    const plan = model.codons.get("plan");
    assert.equal(plan?.tokens, 15);
    assert.equal(plan?.model, "scripted");
    assert.deepEqual(diffStats(plan), { created: 1, modified: 0, deleted: 0 });
    assert.equal(model.codons.get("step#1")?.stream[0]?.kind, "text");
    assert.equal(model.lastSeq, events.at(-1)?.seq);
  });

  it("a failed codon is the failed run's cause", async () => {
    const events = await journalOf(hankOf([scriptedCodon("a", "@fail Bad input: the file is empty")]));
    const model = new ExecutionModel();
    for (const event of events) model.apply(event);
    assert.equal(model.outcome.kind, "failed");
    assert.match(
      model.outcome.kind === "failed" ? (model.outcome.cause ?? "") : "",
      /Codon a failed.*Bad input: the file is empty/,
    );
    assert.match(model.codons.get("a")?.failure ?? "", /Bad input/);
  });
});

describe("web: the execution page's model over pages of history", () => {
  it("seeded with a view and the newest page, then older pages, shows what the whole journal shows", async () => {
    const events = await journalOf(
      hankOf([
        scriptedCodon("plan", "@write notes.txt hi\n@usage input=10 output=5"),
        scriptedLoop("fix", { type: "iterationLimit", limit: 4 }, [scriptedCodon("step", "@say working")]),
      ]),
    );
    const whole = new ExecutionModel();
    for (const event of events) whole.apply(event);
    // The view after the first codon's start; the page holds the rest; the older page the beginning.
    const cut = events.findIndex((e) => e.type === "codon.started" && e.data.codonId === "step#2");
    const fold = new RunViewFold();
    for (const event of events.slice(0, cut)) fold.apply(event);
    const paged = new ExecutionModel();
    paged.seed(JSON.parse(JSON.stringify(fold.capture())) as RunViewSnapshot, true);
    for (const event of events.slice(cut)) paged.apply(event);
    assert.deepEqual(paged.outcome, whole.outcome);
    assert.deepEqual(paged.counts, whole.counts);
    assert.equal(paged.totalTokens, whole.totalTokens);
    assert.equal(paged.lastSeq, whole.lastSeq);
    const ids = (model: ExecutionModel) =>
      model.timeline.map((e) => (e.kind === "codon" ? e.codon.id : `iteration ${e.iteration.iteration}`));
    assert.deepEqual(ids(paged), ["step#2", "iteration 2", "step#3", "iteration 3"]);
    paged.prependOlder(events.slice(0, cut), false);
    assert.deepEqual(ids(paged), ids(whole));
    assert.equal(paged.hasOlder, false);
    const rows = (model: ExecutionModel) =>
      [...model.codons.values()].map((c) => [c.id, c.status, c.tokens, c.stream.length, [...c.files]]);
    assert.deepEqual(rows(paged).sort(), rows(whole).sort());
  });
});
