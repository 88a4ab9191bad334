import assert from "node:assert/strict";
import { it } from "node:test";
import { sampleJournaled } from "../events/event-samples.ts";
import type { JournaledEvent } from "../events/events.ts";
import { IDLE_ACTIVITY, nextActivity, type RunActivity } from "./run-activity.ts";

function transition(transitionType: "RunStarted" | "RunFailed", seq: number): JournaledEvent {
  const sample = sampleJournaled("state.transition", seq);
  return { ...sample, data: { ...sample.data, transitionType } } as JournaledEvent;
}

it("follows a run: started, a codon running, parked, ended; idle before the run is not parked", () => {
  const started = sampleJournaled("codon.started", 2);
  const completed = sampleJournaled("codon.completed", 3);
  const idle = sampleJournaled("server.idle", 4);
  const runStart = transition("RunStarted", 1);
  const startedAt = Date.parse(runStart.timestamp);
  if (started.type !== "codon.started" || idle.type !== "server.idle") throw new Error("samples");
  const running = {
    id: started.data.codonId,
    name: started.data.codonName,
    attempt: started.data.attempt ?? 1,
    since: Date.parse(started.timestamp),
  };
  const parked = { reason: idle.data.reason, message: idle.data.message };
  const steps: [JournaledEvent, RunActivity][] = [
    [idle, IDLE_ACTIVITY],
    [runStart, { live: true, running: undefined, parked: undefined, runStartedAt: startedAt }],
    [started, { live: true, running, parked: undefined, runStartedAt: startedAt }],
    [completed, { live: true, running: undefined, parked: undefined, runStartedAt: startedAt }],
    [idle, { live: true, running: undefined, parked, runStartedAt: startedAt }],
    [transition("RunFailed", 5), { ...IDLE_ACTIVITY, runStartedAt: startedAt }],
  ];
  let activity = IDLE_ACTIVITY;
  for (const [event, expected] of steps) {
    activity = nextActivity(activity, event);
    assert.deepEqual(activity, expected, event.type);
  }
});
