import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decodeLoopEvent, isLoopEvent, LOOP_EVENT_TYPES } from "./loop-events.ts";

const STAMP = { seq: 3, runId: "r1", at: "2026-01-01T00:00:00.000Z" };

describe("the Loops event log's union", () => {
  test("a stored row of a known kind decodes to that kind, its data typed", () => {
    const event = decodeLoopEvent({
      ...STAMP,
      type: "run.state",
      data: { from: "running", to: "done", via: "gates_passed" },
    });
    assert.ok(isLoopEvent("run.state")(event));
    assert.equal(event.data.to, "done");
  });

  test("a kind this version does not know, or data that no longer parses, is kept as unrecognized", () => {
    const newer = decodeLoopEvent({ ...STAMP, type: "run.teleported", data: { to: "mars" } });
    assert.deepEqual(newer, {
      ...STAMP,
      type: "unrecognized",
      data: { type: "run.teleported", data: { to: "mars" } },
    });
    const malformed = decodeLoopEvent({
      ...STAMP,
      type: "run.state",
      data: { from: "running", to: "sideways" },
    });
    assert.equal(malformed.type, "unrecognized");
    assert.deepEqual(malformed.data, { type: "run.state", data: { from: "running", to: "sideways" } });
  });

  test("every kind is listed once, and none is the reader's own `unrecognized`", () => {
    assert.equal(new Set(LOOP_EVENT_TYPES).size, LOOP_EVENT_TYPES.length);
    assert.ok(!(LOOP_EVENT_TYPES as readonly string[]).includes("unrecognized"));
  });
});
