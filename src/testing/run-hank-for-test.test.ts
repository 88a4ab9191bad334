import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { hankOf, scriptedCodon, scriptedLoop } from "./hank-builders.ts";
import { runHankForTest, startHankForTest } from "./run-hank-for-test.ts";

const SAMPLE = hankOf([
  scriptedCodon("write", "@write out/a.txt hello\n@usage input=10 output=5 cost=0.01"),
  scriptedLoop("L", { type: "iterationLimit", limit: 2 }, [scriptedCodon("grow", "@append out/a.txt more")]),
]);

describe("runHankForTest", () => {
  it("runs a hank object on the scripted agent in a temp workspace and returns journal and state", async () => {
    const run = await runHankForTest({ hank: SAMPLE });
    try {
      assert.deepEqual(
        { status: run.result.status, runId: run.result.runId },
        { status: "completed", runId: "run-1" },
      );
      assert.equal(readFileSync(join(run.agentRoot, "out/a.txt"), "utf8"), "hellomore\nmore\n");
      assert.deepEqual(
        run.state.codons.map((c) => c.id),
        ["write", "grow#0", "grow#1"],
      );
      assert.deepEqual(
        run.data("codon.started").map((s) => s.sessionId),
        ["s-1", "s-3", "s-5"],
      );
      const lines = readFileSync(run.journalPath, "utf8").trimEnd().split("\n");
      // Each line is the event plus `prev`, the hash-chain link to the line before it.
      const records = lines.map((line) => JSON.parse(line) as { prev?: string });
      assert.deepEqual(
        records.map(({ prev: _link, ...event }) => event),
        run.events,
      );
      assert.deepEqual(
        records.map((record) => record.prev === undefined),
        records.map((_, index) => index === 0),
      );
      assert.equal(run.events[0]?.id, "e-1");
      assert.equal(run.events[0]?.timestamp, "2025-01-01T00:00:00.000Z");
    } finally {
      run.remove();
    }
    assert.equal(existsSync(run.dir), false);
  });

  it("is deterministic: the same hank gives the same journal every time", async () => {
    const first = await runHankForTest({ hank: SAMPLE });
    const second = await runHankForTest({ hank: SAMPLE });
    first.remove();
    second.remove();
    assert.deepEqual(second.events, first.events);
  });

  it("writes `files` into the hank directory so prompt files resolve", async () => {
    const run = await runHankForTest({
      hank: hankOf([
        { id: "p", name: "P", model: "haiku", continuationMode: "fresh", promptFile: "prompts/p.md" },
      ]),
      files: { "prompts/p.md": "---\nname: greeter\n---\n@say from a file" },
    });
    run.remove();
    assert.deepEqual(
      run.data("assistant.action").map((a) => a.content),
      ["from a file"],
    );
    assert.deepEqual(run.data("codon.started")[0]?.promptMetadata, { name: "greeter" });
  });

  it("keeps the hank's own models with `model: null`; a harness that is not wired fails the codon", async () => {
    const run = await runHankForTest({
      hank: hankOf([{ id: "h", name: "H", model: "haiku", continuationMode: "fresh", promptText: "hi" }]),
      model: null,
    });
    run.remove();
    const [completed] = run.data("codon.completed");
    assert.equal(completed?.failedDuring, "starting");
    assert.match(completed?.failureReason?.message ?? "", /^The Claude harness is not available/);
    assert.equal(run.result.exitCode, 1);
  });

  it("throws, listing every error, for a hank that does not validate", () => {
    const codon = { id: "a", name: "A", model: "scripted", continuationMode: "fresh", promptText: "x" };
    const bad = { hank: [{ ...codon, trackedFiles: ["x"] }, codon] };
    assert.throws(
      () => startHankForTest({ hank: bad }),
      (caught: unknown) =>
        caught instanceof Error &&
        caught.message.startsWith("The test hank does not validate:\n") &&
        caught.message.includes('Unknown field "trackedFiles"') &&
        caught.message.includes("Duplicate codon ID"),
    );
  });
});
