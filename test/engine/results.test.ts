import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RESULT_TEXT_LIMIT } from "../../src/engine/index.ts";
import { initialRunState, readAll, reduce } from "../../src/journal/index.ts";
import { hankOf, runHankForTest, scriptedCodon } from "../../src/testing/index.ts";
import { lifecycle } from "./support.ts";

const text = (value: string) => ({ text: value, truncated: false, chars: value.length });

describe("a codon's final text (result)", () => {
  it("is the agent's last text: in codon.completed and in the run state", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@say thinking aloud\n@write notes.txt x\n@say Final answer."),
        scriptedCodon("b", "Plain prose is echoed,\nand becomes the result."),
        scriptedCodon("c", "@write quiet.txt nothing said"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(
      run.data("codon.completed").map((c) => [c.codonId, c.result]),
      [
        ["a", text("Final answer.")],
        ["b", text("Plain prose is echoed,\nand becomes the result.")],
        ["c", undefined],
      ],
    );
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.result]),
      [
        ["a", text("Final answer.")],
        ["b", text("Plain prose is echoed,\nand becomes the result.")],
        ["c", null],
      ],
    );
  });

  it("is bounded: the first RESULT_TEXT_LIMIT characters, marked truncated, with the full length", async (t) => {
    const long = "y".repeat(RESULT_TEXT_LIMIT + 100);
    const run = await runHankForTest({ hank: hankOf([scriptedCodon("a", `@say ${long}`)]) });
    t.after(run.remove);
    const expected = { text: long.slice(0, RESULT_TEXT_LIMIT), truncated: true, chars: long.length };
    assert.deepEqual(run.data("codon.completed")[0]?.result, expected);
    assert.deepEqual(run.state.codons[0]?.result, expected);
  });

  it("is not journaled for a failed attempt", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", "@say trying\n@fail invalid_request_error: Invalid model")]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    assert.equal(run.data("codon.completed")[0]?.result, undefined);
    assert.equal(run.state.codons[0]?.result, null);
  });

  it("survives a restart: the earlier run's results stay in the state the journal rebuilds", async (t) => {
    const hank = hankOf([
      scriptedCodon("a", "@say from the first run"),
      scriptedCodon("b", "@fail attempts=1 Your credit balance is too low\n@say from the second run"),
    ]);
    const first = await runHankForTest({ hank });
    t.after(first.remove);
    assert.deepEqual(lifecycle(first.events), [
      "started a",
      "completed a ok",
      "started b",
      "completed b failed",
    ]);
    const second = await runHankForTest({ hank, continueFrom: first });
    assert.deepEqual(lifecycle(second.events), ["started b", "completed b ok"]);
    assert.deepEqual(
      second.state.codons.map((c) => [c.id, c.result]),
      [
        ["a", text("from the first run")],
        ["b", text("from the second run")],
      ],
    );
    const read = await readAll(second.journalPath, { validate: true });
    assert.deepEqual(read.events.reduce(reduce, initialRunState()), second.state);
  });

  it("carries across exhaustWithPrompt extensions, and the checkpoint hears every session's files", async (t) => {
    const changed: (readonly string[] | null)[] = [];
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("w", "@write a.txt one\n@say first session", {
          exhaustWithPrompt: "@write b.txt two",
          maxExtensions: 1,
        }),
      ]),
      hooks: {
        finishCodon: async (context) => {
          changed.push(context.changedPaths);
          return { ok: true };
        },
      },
    });
    t.after(run.remove);
    assert.equal(run.data("codon.extended").length, 1);
    assert.deepEqual(run.data("codon.completed")[0]?.result, text("first session"));
    assert.deepEqual(changed, [["a.txt", "b.txt"]]);
  });
});
