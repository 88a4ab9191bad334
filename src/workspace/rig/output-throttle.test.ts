import assert from "node:assert/strict";
import { test } from "node:test";
import { createFakeClock } from "../process/test-support.ts";
import { createOutputThrottle } from "./output-throttle.ts";

function setup() {
  const clock = createFakeClock(10_000);
  const sent: Array<[at: number, text: string]> = [];
  const throttle = createOutputThrottle(clock, (text) => sent.push([clock.now(), text]));
  return { clock, sent, throttle };
}

test("the first line goes out at once; lines inside the interval go out together when it ends", () => {
  const { clock, sent, throttle } = setup();
  throttle.push("a");
  clock.advance(200);
  throttle.push("b");
  clock.advance(300);
  throttle.push("c");
  assert.deepEqual(sent, [[10_000, "a"]]);
  clock.advance(500);
  assert.deepEqual(sent, [
    [10_000, "a"],
    [11_000, "b\nc"],
  ]);
});

test("a line after a quiet interval goes out at once", () => {
  const { clock, sent, throttle } = setup();
  throttle.push("a");
  clock.advance(1_500);
  throttle.push("b");
  assert.deepEqual(sent, [
    [10_000, "a"],
    [11_500, "b"],
  ]);
});

test("never more than one emission per interval under steady output, and no line is lost", () => {
  const { clock, sent, throttle } = setup();
  for (let i = 0; i < 25; i++) {
    throttle.push(`l${i}`);
    clock.advance(100);
  }
  throttle.flush();
  const times = sent.map(([at]) => at);
  for (let i = 1; i < times.length - 1; i++) assert.ok((times[i] ?? 0) - (times[i - 1] ?? 0) >= 1_000);
  assert.deepEqual(
    sent.flatMap(([, text]) => text.split("\n")),
    Array.from({ length: 25 }, (_, i) => `l${i}`),
  );
  assert.deepEqual(times, [10_000, 11_000, 12_000, 12_500]);
});

test("flush sends the waiting lines now and leaves no timer behind", () => {
  const { clock, sent, throttle } = setup();
  throttle.push("a");
  throttle.push("b");
  throttle.push("c");
  throttle.flush();
  assert.deepEqual(sent, [
    [10_000, "a"],
    [10_000, "b\nc"],
  ]);
  assert.equal(clock.pendingTimers(), 0);
  throttle.flush();
  assert.equal(sent.length, 2);
});
