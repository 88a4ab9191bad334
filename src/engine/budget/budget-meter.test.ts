import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { UsageIncrement } from "../../harness/harness.ts";
import { type MeterReading, type MeterState, meter, startMeter } from "./budget-meter.ts";
import type { CodonLimits } from "./types.ts";

const usage = (fields: Partial<UsageIncrement>): UsageIncrement => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  costUsd: null,
  ...fields,
});

/** Feeds readings in order; returns the final state and every trip, in order. */
function run(limits: CodonLimits, readings: readonly MeterReading[]) {
  let state: MeterState = startMeter(limits);
  const trips = [];
  for (const reading of readings) {
    const result = meter(state, reading);
    state = result.state;
    if (result.exceeded !== undefined) trips.push(result.exceeded);
  }
  return { state, trips };
}

describe("meter: cost", () => {
  const limits: CodonLimits = {
    cost: { limit: 0.7, scope: "hank", source: "shared pool" },
    onExceeded: "complete",
  };

  it("trips when the spend reaches the limit, with the source in the message", () => {
    const { trips } = run(limits, [{ usage: usage({ costUsd: 0.5 }) }, { usage: usage({ costUsd: 0.2 }) }]);
    assert.deepEqual(trips, [
      {
        currency: "cost",
        limit: 0.7,
        used: 0.7,
        message: "Cost $0.7000 exceeded limit $0.7000 [shared pool]",
      },
    ]);
  });
  it("compares at micro-dollar precision (0.1 + 0.2 reaches 0.3)", () => {
    const { trips } = run(
      { cost: { limit: 0.3, scope: "codon", source: "codon cap" }, onExceeded: "complete" },
      [{ usage: usage({ costUsd: 0.1 }) }, { usage: usage({ costUsd: 0.2 }) }],
    );
    assert.equal(trips.length, 1);
    assert.equal(trips[0]?.used, 0.3);
  });
  it("stays quiet below the limit", () => {
    const { state, trips } = run(limits, [{ usage: usage({ costUsd: 0.69 }) }]);
    assert.deepEqual(trips, []);
    assert.equal(state.costUsd, 0.69);
  });
  it("a $0 limit trips on the first cost, not on a free or unpriced response", () => {
    const zero: CodonLimits = {
      cost: { limit: 0, scope: "hank", source: "shared pool" },
      onExceeded: "complete",
    };
    const { trips } = run(zero, [
      { usage: usage({ costUsd: 0 }) },
      { usage: usage({ outputTokens: 10, costUsd: null }) },
      { usage: usage({ costUsd: 0.01 }) },
    ]);
    assert.deepEqual(trips, [
      {
        currency: "cost",
        limit: 0,
        used: 0.01,
        message: "Cost $0.0100 exceeded limit $0.0000 [shared pool]",
      },
    ]);
  });
  it("trips at most once; counting goes on", () => {
    const { state, trips } = run(limits, [
      { usage: usage({ costUsd: 0.8 }) },
      { usage: usage({ costUsd: 0.5 }) },
      { elapsedSeconds: 999 },
    ]);
    assert.equal(trips.length, 1);
    assert.equal(state.costUsd, 1.3);
    assert.equal(state.exceeded?.used, 0.8);
  });
});

describe("meter: tokens", () => {
  it("output tokens accumulate over the execution", () => {
    const limits: CodonLimits = {
      outputTokens: { limit: 1000, scope: "codon", source: "codon cap" },
      onExceeded: "fail",
    };
    const { trips } = run(limits, [
      { usage: usage({ outputTokens: 600 }) },
      { usage: usage({ outputTokens: 500 }) },
    ]);
    assert.deepEqual(trips, [
      {
        currency: "outputTokens",
        limit: 1000,
        used: 1100,
        message: "Output tokens 1100 exceeded limit 1000",
      },
    ]);
  });
  it("context tokens are the high-water mark of one response's prompt (cache included) plus output", () => {
    const limits: CodonLimits = {
      contextTokens: { limit: 10_000, scope: "codon", source: "codon cap" },
      onExceeded: "complete",
    };
    const { state, trips } = run(limits, [
      { usage: usage({ inputTokens: 5000, outputTokens: 1000 }) },
      {
        usage: usage({
          inputTokens: 200,
          cacheReadTokens: 6000,
          cacheCreationTokens: 1000,
          outputTokens: 800,
        }),
      },
    ]);
    assert.deepEqual(trips, []);
    assert.equal(state.contextTokens, 8000);
    const next = meter(state, {
      usage: usage({ inputTokens: 100, cacheReadTokens: 9000, outputTokens: 900 }),
    });
    assert.deepEqual(next.exceeded, {
      currency: "contextTokens",
      limit: 10_000,
      used: 10_000,
      message: "Context tokens 10000 exceeded limit 10000",
    });
  });
});

describe("meter: duration", () => {
  it("trips on an elapsed reading at the limit", () => {
    const limits: CodonLimits = {
      duration: { limit: 60, scope: "hank", source: "hank remaining time" },
      onExceeded: "complete",
    };
    const { trips } = run(limits, [{ elapsedSeconds: 59 }, { elapsedSeconds: 60 }]);
    assert.deepEqual(trips, [
      { currency: "duration", limit: 60, used: 60, message: "Duration 60.0s exceeded limit 60s" },
    ]);
  });
  it("writes a fractional limit to one decimal", () => {
    const limits: CodonLimits = {
      duration: { limit: 14.5, scope: "hank", source: "hank remaining time" },
      onExceeded: "complete",
    };
    assert.equal(
      meter(startMeter(limits), { elapsedSeconds: 15.04 }).exceeded?.message,
      "Duration 15.0s exceeded limit 14.5s",
    );
  });
  it("a loop-bound limit reports the loop's whole time against its budget", () => {
    const limits: CodonLimits = {
      duration: {
        limit: 30,
        scope: "loop",
        source: "loop L remaining time",
        loop: { id: "L", limitSeconds: 100, elapsedBeforeSeconds: 70 },
      },
      onExceeded: "complete",
    };
    assert.deepEqual(meter(startMeter(limits), { elapsedSeconds: 30.2 }).exceeded, {
      currency: "duration",
      limit: 100,
      used: 100.2,
      message: "Loop L duration 100.2s exceeded limit 100s",
    });
  });
  it("a zero limit (time already spent) trips on the first reading", () => {
    const limits: CodonLimits = {
      duration: { limit: 0, scope: "hank", source: "hank remaining time" },
      onExceeded: "complete",
    };
    assert.equal(meter(startMeter(limits), { elapsedSeconds: 0 }).exceeded?.currency, "duration");
  });
  it("elapsed time never goes backwards", () => {
    const { state } = run({ onExceeded: "complete" }, [{ elapsedSeconds: 5 }, { elapsedSeconds: 3 }]);
    assert.equal(state.elapsedSeconds, 5);
  });
});

describe("meter: order and no limits", () => {
  it("one reading over several limits reports cost first", () => {
    const limits: CodonLimits = {
      cost: { limit: 1, scope: "codon", source: "codon cap" },
      outputTokens: { limit: 10, scope: "codon", source: "codon cap" },
      duration: { limit: 1, scope: "codon", source: "codon cap" },
      onExceeded: "complete",
    };
    const result = meter(startMeter(limits), {
      usage: usage({ outputTokens: 50, costUsd: 2 }),
      elapsedSeconds: 5,
    });
    assert.equal(result.exceeded?.currency, "cost");
  });
  it("without limits it only counts", () => {
    const { state, trips } = run({ onExceeded: "complete" }, [
      { usage: usage({ inputTokens: 10, outputTokens: 20, costUsd: 0.25 }), elapsedSeconds: 2 },
    ]);
    assert.deepEqual(trips, []);
    assert.deepEqual(state, {
      limits: { onExceeded: "complete" },
      costUsd: 0.25,
      outputTokens: 20,
      contextTokens: 30,
      elapsedSeconds: 2,
    });
  });
});
