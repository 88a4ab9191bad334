import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Checkpointer } from "../checkpoint/index.ts";
import type { EventSink } from "../engine/index.ts";
import { HankFile } from "../hank/schema/index.ts";
import { initialRunState } from "../journal/index.ts";
import { buildPlan } from "../plan/index.ts";
import { createFakeClock } from "../testing/fake-clock.ts";
import { executionLayout } from "../workspace/execution-layout.ts";
import { createWorkspaceHooks, SNAPSHOT_INTERVAL_MS } from "./workspace-hooks.ts";

const hank = HankFile.parse({
  hank: [{ id: "a", name: "A", model: "scripted", continuationMode: "fresh", promptText: "go" }],
});

/**
 * Hooks over a sink whose `state()` makes time pass by `buildMs`: a snapshot that takes that long to
 * write. Counts the snapshots written.
 */
function hooksWithSlowSnapshots(buildMs: number) {
  const dir = mkdtempSync(join(tmpdir(), "hw-hooks-"));
  const clock = createFakeClock();
  let written = 0;
  const sink = {
    state: () => {
      written += 1;
      clock.advance(buildMs);
      return { ...initialRunState(), lastSeq: written };
    },
  } as unknown as EventSink;
  const hooks = createWorkspaceHooks({
    layout: executionLayout(dir),
    hankDir: dir,
    processEnv: {},
    sink,
    clock,
    checkpointer: {} as Checkpointer,
    ignoreRigFailures: false,
    hank,
    overwriteOutput: false,
  });
  const persistAt = (offsetMs: number, start: number): void => {
    clock.advance(start + offsetMs - clock.now());
    hooks.persist?.(buildPlan(hank));
  };
  return { dir, clock, persistAt, written: () => written };
}

describe("workspace hooks: state snapshots", () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("writes at most one snapshot per interval while writes are fast", () => {
    const run = hooksWithSlowSnapshots(0);
    dirs.push(run.dir);
    const start = run.clock.now();
    for (const offset of [0, 10, SNAPSHOT_INTERVAL_MS - 1, SNAPSHOT_INTERVAL_MS, SNAPSHOT_INTERVAL_MS + 5])
      run.persistAt(offset, start);
    assert.equal(run.written(), 2);
    const saved = JSON.parse(readFileSync(join(run.dir, ".hankweave", "state.json"), "utf8"));
    assert.equal(saved.runState.lastSeq, 2);
  });

  it("spaces slow snapshots out so they take at most 5 % of the run", () => {
    const run = hooksWithSlowSnapshots(200);
    dirs.push(run.dir);
    const start = run.clock.now();
    run.persistAt(0, start);
    run.persistAt(SNAPSHOT_INTERVAL_MS, start);
    run.persistAt(3999, start);
    assert.equal(run.written(), 1, "a 200 ms write is followed by 4 s without one");
    run.persistAt(4000, start);
    assert.equal(run.written(), 2);
  });
});
