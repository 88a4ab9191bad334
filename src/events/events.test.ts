import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SAMPLE_DATA, sampleEvent } from "./event-samples.ts";
import {
  category,
  EVENT_TYPES,
  type EventType,
  HankEventSchema,
  isJournaled,
  JournaledEventSchema,
} from "./events.ts";

function withData(type: EventType, data: unknown): unknown {
  return { ...sampleEvent(type, 7), data };
}

describe("event union", () => {
  it("accepts a realistic event of every type", () => {
    assert.equal(EVENT_TYPES.length, 37);
    for (const type of EVENT_TYPES) {
      const parsed = HankEventSchema.safeParse(sampleEvent(type, 3));
      assert.equal(parsed.success, true, `${type}: ${parsed.error?.message}`);
    }
  });

  it("lists exactly the types of the union", () => {
    const unionTypes = HankEventSchema.options.map((option) => option.shape.type.value);
    assert.deepEqual([...unionTypes].sort(), [...EVENT_TYPES].sort());
    assert.deepEqual(Object.keys(SAMPLE_DATA).sort(), [...EVENT_TYPES].sort());
  });

  it("categorizes every type as the reference does", () => {
    const counts: Record<string, number> = {};
    for (const type of EVENT_TYPES) counts[category(type)] = (counts[category(type)] ?? 0) + 1;
    // 20 server-state types of the reference, plus our `run.command`.
    assert.deepEqual(counts, { "server-state": 21, "agentic-backbone": 7, sentinel: 5, connection: 4 });
    assert.equal(category("loop.iteration.completed"), "server-state");
    assert.equal(category("rig.output"), "agentic-backbone");
    assert.equal(category("sentinel.triggered"), "sentinel");
    assert.equal(category("history.batch"), "connection");
  });

  it("journals everything but the connection events", () => {
    const notJournaled = EVENT_TYPES.filter((type) => !isJournaled(type));
    assert.deepEqual(notJournaled, ["server.ready", "pong", "history.batch", "incomplete.codon"]);
    assert.equal(isJournaled("codon.started"), true);
    assert.equal(isJournaled("run.started"), false);
    assert.equal(isJournaled("toString"), false);
    assert.equal(JournaledEventSchema.safeParse(sampleEvent("pong")).success, false);
  });

  it("rejects a misnamed payload field", () => {
    const { cost, ...rest } = SAMPLE_DATA["codon.completed"];
    const parsed = HankEventSchema.safeParse(withData("codon.completed", { ...rest, costUsd: cost }));
    assert.equal(parsed.success, false);
    const paths = parsed.error?.issues.map((issue) => issue.path.join("."));
    assert.deepEqual(paths?.sort(), ["data", "data.cost"]);
  });

  it("rejects values outside the reference's sets", () => {
    const cases: Array<[EventType, unknown]> = [
      [
        "loop.iteration.completed",
        { ...SAMPLE_DATA["loop.iteration.completed"], terminationReason: "budget" },
      ],
      [
        "codon.completed",
        { ...SAMPLE_DATA["codon.completed"], budgetExceeded: { currency: "tokens", limit: 1, used: 2 } },
      ],
      ["codon.completed", { ...SAMPLE_DATA["codon.completed"], exitStatus: { type: "error" } }],
      [
        "codon.completed",
        {
          ...SAMPLE_DATA["codon.completed"],
          endReasons: { stream: "done", toolBatch: "completed", turn: "completed", codon: "completed" },
        },
      ],
      ["assistant.action", { ...SAMPLE_DATA["assistant.action"], toolUseId: undefined }],
      ["file.updated", { ...SAMPLE_DATA["file.updated"], content: "inline content is v1" }],
      ["server.idle", { reason: "finished", message: "x" }],
    ];
    for (const [type, data] of cases) {
      assert.equal(
        HankEventSchema.safeParse(withData(type, data)).success,
        false,
        `${type} ${JSON.stringify(data)}`,
      );
    }
  });

  it("requires the envelope: version, positive seq on journaled events, ISO timestamp", () => {
    const event = sampleEvent("info", 1);
    assert.equal(HankEventSchema.safeParse({ ...event, v: 2 }).success, false);
    assert.equal(HankEventSchema.safeParse({ ...event, seq: 0 }).success, false);
    assert.equal(HankEventSchema.safeParse({ ...event, timestamp: "yesterday" }).success, false);
    const { seq: _seq, ...withoutSeq } = event;
    assert.equal(HankEventSchema.safeParse(withoutSeq).success, false);
    assert.equal(HankEventSchema.safeParse({ ...event, run: "run-1" }).success, false);
  });

  it("accepts optional reference fields left out", () => {
    const data = {
      codonId: "a",
      success: false,
      cost: 0,
      duration: 5,
      exitStatus: { type: "killed", signal: "SIGTERM" },
    };
    assert.equal(HankEventSchema.safeParse(withData("codon.completed", data)).success, true);
    const failed = {
      ...data,
      failureReason: { type: "rate-limit", retriable: true, message: "429", retryAfterMs: 60_000 },
      failedDuring: "running",
      attempt: 2,
    };
    assert.equal(HankEventSchema.safeParse(withData("codon.completed", failed)).success, true);
  });

  it("carries journaled events inside history.batch", () => {
    const batch = { events: [sampleEvent("info", 1), sampleEvent("codon.started", 2)], hasMore: true };
    assert.equal(HankEventSchema.safeParse(withData("history.batch", batch)).success, true);
    const bad = { events: [sampleEvent("pong")], hasMore: false };
    assert.equal(HankEventSchema.safeParse(withData("history.batch", bad)).success, false);
  });
});
