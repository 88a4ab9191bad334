import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../../src/events/index.ts";
import { readSince } from "../../src/journal/index.ts";
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
