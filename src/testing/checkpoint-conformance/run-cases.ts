import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type ConformanceCase,
  codon,
  FIXTURE_EPOCH,
  type MakeCheckpointer,
  startedCheckpointer,
  withFixture,
} from "./checkpoint-fixture.ts";

/** Conformance cases: the store, runs and their lines, lookups. Each runs against fresh temporary directories. */
export const RUN_CASES: readonly ConformanceCase[] = [
  [
    "init is idempotent and a reopened store keeps its checkpoints",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("a.md", "a");
        const made = await cp.commit(codon("c1", ["a.md"]));
        await cp.init();
        const reopened = fx.open();
        await reopened.init();
        await reopened.init();
        assert.deepEqual(await reopened.list("run-1"), [made]);
        assert.deepEqual(await reopened.filesAt(made.sha), ["a.md"]);
      }),
  ],

  [
    "records carry the codon, the type, the run, its branch and the clock's time",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        fx.time = FIXTURE_EPOCH + 61_234;
        const rig = await cp.commit({
          ...codon("edit#0", []),
          codonName: 'Edit: "one"\nline',
          type: "rig-setup",
        });
        fx.time = FIXTURE_EPOCH + 120_000;
        const failed = await cp.commit({
          ...codon("edit#0", []),
          type: "error",
          message: "Rate limited.\n\nTwice.",
        });
        assert.match(rig.sha, /^[0-9a-f]{40,64}$/);
        assert.deepEqual(
          { ...rig, sha: "" },
          {
            sha: "",
            codonId: "edit#0",
            codonName: 'Edit: "one"\nline',
            checkpointType: "rig-setup",
            runId: "run-1",
            timestamp: "2025-01-01T00:01:01.234Z",
            branch: "run/run-1",
          },
        );
        assert.equal(failed.timestamp, "2025-01-01T00:02:00.000Z");
        assert.equal(failed.checkpointType, "error");
        assert.deepEqual(await cp.list("run-1"), [rig, failed]);
      }),
  ],

  [
    "each run has its own line; list gives a run's own checkpoints oldest first",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        const one = await cp.commit(codon("a", []));
        const two = await cp.commit(codon("b", [], { type: "skipped" }));
        const start = await cp.startRun("run-2");
        assert.deepEqual(start, { runId: "run-2", branch: "run/run-2", baseSha: two.sha });
        const three = await cp.commit(codon("c", []));
        assert.deepEqual(await cp.list("run-1"), [one, two]);
        assert.deepEqual(await cp.list("run-2"), [three]);
        assert.deepEqual(await cp.list(), [one, two, three]);
        assert.deepEqual(await cp.list("never-started"), []);
        assert.deepEqual(await cp.list("not a run id"), []);
      }),
  ],

  [
    "a run started from a checkpoint continues from that checkpoint's files",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        await fx.write("a.md", "a");
        const first = await cp.commit(codon("c1", ["*.md"]));
        await fx.write("b.md", "b");
        await cp.commit(codon("c2", ["*.md"]));
        const start = await cp.startRun("run-2", first.sha.slice(0, 10));
        assert.equal(start.baseSha, first.sha);
        const next = await cp.commit(codon("c3", []));
        assert.deepEqual(await cp.filesAt(next.sha), ["a.md"]);
        assert.deepEqual(await cp.list("run-2"), [next]);
      }),
  ],

  [
    "a restarted run resumes its line; a base off that line is refused",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        const first = await cp.commit(codon("c1", []));
        const second = await cp.commit(codon("c2", []));
        await cp.startRun("other");
        const elsewhere = await cp.commit(codon("x", []));
        const reopened = fx.open();
        await reopened.init();
        assert.deepEqual(await reopened.startRun("run-1"), {
          runId: "run-1",
          branch: "run/run-1",
          baseSha: second.sha,
        });
        const third = await reopened.commit(codon("c3", []));
        assert.deepEqual(await reopened.list("run-1"), [first, second, third]);
        assert.equal((await reopened.startRun("run-1", first.sha)).baseSha, third.sha);
        await assert.rejects(reopened.startRun("run-1", elsewhere.sha), { code: "run-conflict" });
      }),
  ],

  [
    "resolve accepts full ids and unique prefixes, nothing else",
    (make) =>
      withFixture(make, async (fx) => {
        const cp = await startedCheckpointer(fx);
        const made = await cp.commit(codon("c1", []));
        assert.equal(await cp.resolve(made.sha), made.sha);
        assert.equal(await cp.resolve(made.sha.slice(0, 7)), made.sha);
        assert.equal(await cp.resolve(made.sha.slice(0, 7).toUpperCase()), made.sha);
        for (const target of ["0".repeat(40), "HEAD", "run/run-1", "main", "--all", "abc", "zzzz", ""]) {
          assert.equal(await cp.resolve(target), undefined, target);
        }
      }),
  ],

  [
    "calls out of order and bad names reject with a code",
    (make) =>
      withFixture(make, async (fx) => {
        const fresh = fx.open();
        await assert.rejects(fresh.list(), { name: "CheckpointError", code: "not-initialized" });
        await fresh.init();
        await assert.rejects(fresh.commit(codon("c1", [])), { code: "no-active-run" });
        for (const runId of ["", "a/b", "..", "-x", ".hidden", "x.lock", "sp ace"]) {
          await assert.rejects(fresh.startRun(runId), { code: "invalid-run-id" }, runId);
        }
        await assert.rejects(fresh.startRun("run-1", "0".repeat(40)), { code: "unknown-checkpoint" });
        await assert.rejects(fresh.filesAt("0".repeat(40)), { code: "unknown-checkpoint" });
        await assert.rejects(fresh.restore("HEAD"), { code: "unknown-checkpoint" });
      }),
  ],
];

export function runConformance(make: MakeCheckpointer): void {
  for (const [name, run] of RUN_CASES) test(name, () => run(make));
}
