import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { eventOf, typesOf } from "./test-support.ts";
import { createTriggerMatcher } from "./trigger-matcher.ts";

const failed = { path: "isError", operator: "equals", value: true } as const;

describe("sentinel trigger matching", () => {
  it("an event trigger fires on each listed type whose conditions hold, with that one event", () => {
    const matcher = createTriggerMatcher({
      type: "event",
      on: ["tool.result", "file.updated"],
      conditions: [{ path: "toolName", operator: "equals", value: "Bash" }],
    });
    assert.deepEqual(typesOf(matcher.match(eventOf("tool.result", { toolName: "Bash" }))), ["tool.result"]);
    assert.equal(matcher.match(eventOf("tool.result", { toolName: "Read" })), undefined);
    assert.equal(matcher.match(eventOf("assistant.action", { toolName: "Bash" })), undefined);
  });

  it("`*` takes every event type", () => {
    const matcher = createTriggerMatcher({ type: "event", on: ["*"] });
    assert.deepEqual(typesOf(matcher.match(eventOf("info", { message: "x" }))), ["info"]);
  });

  it("a consecutive sequence needs its steps on the last interesting events, then starts over", () => {
    const matcher = createTriggerMatcher({
      type: "sequence",
      interestFilter: { on: ["tool.result"] },
      pattern: [
        { type: "tool.result", conditions: [failed] },
        { type: "tool.result", conditions: [failed] },
      ],
    });
    const fail = () => eventOf("tool.result", { isError: true });
    const pass = () => eventOf("tool.result", { isError: false });
    assert.equal(matcher.match(fail()), undefined);
    assert.equal(matcher.match(pass()), undefined, "a success between breaks the run");
    const first = fail();
    assert.equal(matcher.match(first), undefined);
    // Events outside the interest filter never enter the history, so they do not break it.
    assert.equal(matcher.match(eventOf("assistant.action", {})), undefined);
    const second = fail();
    assert.deepEqual(
      matcher.match(second)?.map((e) => e.id),
      [first.id, second.id],
    );
    assert.equal(matcher.match(fail()), undefined, "the matched events do not take part again");
    assert.deepEqual(typesOf(matcher.match(fail())), ["tool.result", "tool.result"]);
  });

  it("a sequence with consecutive: false allows gaps and takes the first event fitting each step", () => {
    const matcher = createTriggerMatcher({
      type: "sequence",
      interestFilter: { on: ["assistant.action", "tool.result", "file.updated"] },
      pattern: [{ type: "assistant.action" }, { type: "file.updated" }],
      options: { consecutive: false },
    });
    const action = eventOf("assistant.action");
    assert.equal(matcher.match(action), undefined);
    assert.equal(matcher.match(eventOf("tool.result")), undefined);
    assert.equal(matcher.match(eventOf("assistant.action")), undefined);
    const file = eventOf("file.updated");
    assert.deepEqual(
      matcher.match(file)?.map((e) => e.id),
      [action.id, file.id],
    );
    assert.equal(matcher.match(eventOf("file.updated")), undefined, "a new match needs a new first step");
  });

  it("a pattern step may be `*`", () => {
    const matcher = createTriggerMatcher({
      type: "sequence",
      interestFilter: { on: ["*"] },
      pattern: [{ type: "codon.started" }, { type: "*" }],
    });
    assert.equal(matcher.match(eventOf("codon.started")), undefined);
    assert.deepEqual(typesOf(matcher.match(eventOf("info"))), ["codon.started", "info"]);
  });
});
