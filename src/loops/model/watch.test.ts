import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { foldBodyEnds, foldTrees, foldVerdicts, overCeiling, parseItems } from "./fan-out.ts";
import { parseSourceOutput, pollDueAt, sourceSilent } from "./watch.ts";

describe("watch sources and fan-out items", () => {
  test("a source's last line is its answer; anything else is a failed poll", () => {
    assert.deepEqual(parseSourceOutput('log line\n{"items": [{"id": "a"}], "cursor": "7"}\n'), {
      ok: true,
      items: [{ id: "a" }],
      cursor: "7",
    });
    assert.deepEqual(parseSourceOutput('{"items": []}'), { ok: true, items: [], cursor: null });
    assert.equal(parseSourceOutput("nothing").ok, false);
    assert.equal(parseSourceOutput('{"items": [{"name": "x"}]}').ok, false);
    assert.equal(parseSourceOutput('{"items": [], "cursor": 3}').ok, false);
  });

  test("polls: the first run at once, a successor every_sec after it was armed, a failure every_sec later", () => {
    const base = { armedAtMs: 1000, everySec: 60, lastFailedPollMs: null };
    assert.equal(pollDueAt({ ...base, successor: false }), 1000);
    assert.equal(pollDueAt({ ...base, successor: true }), 61_000);
    assert.equal(pollDueAt({ ...base, successor: true, lastFailedPollMs: 90_000 }), 150_000);
    assert.equal(sourceSilent({ nowMs: 86_400_000, lastSuccessMs: 0, silenceSec: 86_400 }), true);
    assert.equal(sourceSilent({ nowMs: 86_399_999, lastSuccessMs: 0, silenceSec: 86_400 }), false);
  });

  test("fan-out items need unique, path-safe ids; more than the ceiling is over it", () => {
    assert.deepEqual(parseItems('[{"id": "a"}, {"id": "b.1"}]'), {
      ok: true,
      items: [{ id: "a" }, { id: "b.1" }],
    });
    assert.equal(parseItems('[{"id": "../x"}]').ok, false);
    assert.equal(parseItems('[{"id": "a"}, {"id": "a"}]').ok, false);
    assert.equal(parseItems('{"id": "a"}').ok, false);
    assert.equal(overCeiling([{ id: "a" }, { id: "b" }], 1), true);
    assert.equal(overCeiling([{ id: "a" }], 1), false);
  });

  test("a fanned-out generation is as good as its worst item", () => {
    assert.deepEqual(
      foldBodyEnds([
        { kind: "completed" },
        { kind: "error", message: "503", unrecoverable: false },
        { kind: "error", message: "bad", unrecoverable: true },
      ]),
      { kind: "error", message: "bad", unrecoverable: true },
    );
    const folded = foldVerdicts([
      { id: "a", verdicts: [{ gateId: "t", verdict: "pass", blockerIds: [], summary: "ok" }] },
      { id: "b", verdicts: [{ gateId: "t", verdict: "revise", blockerIds: ["T-1"], summary: "1 failing" }] },
    ]);
    assert.deepEqual(
      folded.map((g) => [g.gateId, g.verdict, g.blockerIds, g.summary]),
      [["t", "revise", ["b/T-1"], "b: 1 failing"]],
    );
    assert.equal(
      foldTrees([
        { id: "a", tree: "1" },
        { id: "b", tree: null },
      ]),
      null,
    );
    assert.equal(
      foldTrees([
        { id: "b", tree: "2" },
        { id: "a", tree: "1" },
      ]),
      foldTrees([
        { id: "a", tree: "1" },
        { id: "b", tree: "2" },
      ]),
    );
  });
});
