import assert from "node:assert/strict";
import { it } from "node:test";
import { type JournaledEvent, sampleJournaled } from "../journal/index.ts";
import { INITIAL_STATUS, type LiveStatus, nextStatus } from "./live-status.ts";

function transition(transitionType: "RunStarted" | "RunFailed"): JournaledEvent {
  const sample = sampleJournaled("state.transition", 1);
  return { ...sample, data: { ...sample.data, transitionType } } as JournaledEvent;
}

it("follows a run: started, a codon running, parked, ended", () => {
  const started = sampleJournaled("codon.started", 2);
  const completed = sampleJournaled("codon.completed", 3);
  const idle = sampleJournaled("server.idle", 4);
  const steps: [JournaledEvent, LiveStatus][] = [
    [idle, INITIAL_STATUS],
    [transition("RunStarted"), { runLive: true, codonRunning: undefined, parked: false }],
    [
      started,
      {
        runLive: true,
        codonRunning: started.type === "codon.started" ? started.data.codonId : "",
        parked: false,
      },
    ],
    [completed, { runLive: true, codonRunning: undefined, parked: false }],
    [idle, { runLive: true, codonRunning: undefined, parked: true }],
    [transition("RunFailed"), INITIAL_STATUS],
  ];
  let status = INITIAL_STATUS;
  for (const [event, expected] of steps) {
    status = nextStatus(status, event);
    assert.deepEqual(status, expected, event.type);
  }
});
