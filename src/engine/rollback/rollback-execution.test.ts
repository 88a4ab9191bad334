import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createGitCheckpointer } from "../../checkpoint/git/index.ts";
import type { Checkpointer } from "../../checkpoint/index.ts";
import type { HankFile } from "../../hank/schema/index.ts";
import { validateHank } from "../../hank/validate/index.ts";
import { JournalWriter } from "../../journal/index.ts";
import type { ExecutionPlan } from "../../plan/index.ts";
import {
  createFakeClock,
  type FakeClock,
  type HankTestRun,
  hankOf,
  runHankForTest,
  scriptedCodon,
  startHankForTest,
} from "../../testing/index.ts";
import type { EngineHooks } from "../engine-types.ts";
import { createEventSink } from "../run/event-sink.ts";
import { journalLineOf } from "./journal-line.ts";
import { rollbackExecution } from "./rollback-execution.ts";
import type { ArchiveRestorer, RollbackDeps, RollbackResult, RollbackTarget } from "./rollback-types.ts";

const HANK = hankOf([
  scriptedCodon("a", "@write a.md from a\n@write shared.md v1", { checkpointedFiles: ["a.md", "shared.md"] }),
  scriptedCodon("b", "@write b.md from b\n@write shared.md v2", { checkpointedFiles: ["b.md", "shared.md"] }),
  scriptedCodon("c", "@write c.md from c\n@write shared.md v3", { checkpointedFiles: ["c.md", "shared.md"] }),
]);

/** Checkpoints at every boundary, one second apart (the checkpointer arrives once the layout exists). */
function checkpointHooks(store: Promise<Checkpointer>, clock: FakeClock): EngineHooks {
  return {
    async startRun(runId) {
      const checkpointer = await store;
      await checkpointer.init();
      await checkpointer.startRun(runId);
      return { ok: true };
    },
    async finishCodon(context) {
      const checkpointer = await store;
      await checkpointer.commit({
        codonId: context.entry.runtimeId,
        codonName: context.codon.name,
        type: context.success ? "completed" : "error",
        globs: context.codon.checkpointedFiles ?? [],
      });
      clock.advance(1000);
      return { ok: true };
    },
  };
}

interface Ran {
  readonly run: HankTestRun;
  readonly hank: HankFile;
  readonly checkpointer: Checkpointer;
}

async function runThreeCodons(): Promise<Ran> {
  const clock = createFakeClock();
  let provide: (checkpointer: Checkpointer) => void = () => {};
  const store = new Promise<Checkpointer>((resolve) => {
    provide = resolve;
  });
  const running = startHankForTest({ hank: HANK, clock, hooks: checkpointHooks(store, clock) });
  const checkpointer = createGitCheckpointer({
    gitDir: join(running.dir, "git"),
    workTree: running.agentRoot,
    clock,
  });
  provide(checkpointer);
  const run = await running.done;
  const report = validateHank(HANK, {
    hankPath: join(run.hankDir, "hank.json"),
    hankDir: run.hankDir,
    env: {},
  });
  assert.ok(report.hank);
  return { run, hank: report.hank, checkpointer };
}

interface RolledBack {
  readonly result: RollbackResult;
  readonly events: { type: string; data: unknown }[];
  readonly state: ReturnType<ReturnType<typeof createEventSink>["state"]>;
  readonly persisted: ExecutionPlan[];
}

async function rollBack(
  ran: Ran,
  target: RollbackTarget,
  overrides: Partial<RollbackDeps> = {},
): Promise<RolledBack> {
  const line = journalLineOf(ran.run.events);
  const writer = JournalWriter.open(ran.run.journalPath, { validate: true });
  const events: { type: string; data: unknown }[] = [];
  const persisted: ExecutionPlan[] = [];
  try {
    const sink = createEventSink({
      store: writer,
      initialState: line.state,
      listeners: [(event) => events.push({ type: event.type, data: event.data })],
    });
    const result = await rollbackExecution(
      { hank: ran.hank, target, autoRestart: false, line },
      {
        sink,
        checkpointer: ran.checkpointer,
        newRunId: () => "run-2",
        persist: (plan) => persisted.push(plan),
        ...overrides,
      },
    );
    return { result, events, state: sink.state(), persisted };
  } finally {
    writer.close();
  }
}

const read = (ran: Ran, path: string): string | null =>
  existsSync(join(ran.run.agentRoot, path)) ? readFileSync(join(ran.run.agentRoot, path), "utf8") : null;

describe("rollbackExecution", () => {
  it("restores the work tree, journals rollback.*, starts the continuation and replans (scenario 15)", async () => {
    const ran = await runThreeCodons();
    try {
      const done = await rollBack(ran, { kind: "codon", codonId: "a", checkpointType: "completed" });
      assert.ok(done.result.ok);
      assert.deepEqual(
        done.events.map((e) => e.type),
        [
          "rollback.started",
          "rollback.progress",
          "rollback.codonCheckpoint",
          "rollback.progress",
          "rollback.progress",
          "rollback.progress",
          "rollback.completed",
        ],
      );
      const aCompleted = (await ran.checkpointer.list("run-1"))[0];
      assert.deepEqual(done.events[0]?.data, {
        fromRun: "run-1",
        fromCodon: "c",
        toCodon: "a",
        toCheckpoint: aCompleted?.sha,
        checkpointType: "completed",
        codonsToProcess: ["b", "c"],
      });
      assert.deepEqual(done.events[6]?.data, {
        fromRun: "run-1",
        toRun: "run-2",
        checkpoint: aCompleted?.sha,
        codonId: "a",
        codonName: "a",
        checkpointType: "completed",
        autoRestart: false,
      });
      assert.deepEqual(done.result.removed, ["b.md", "c.md"]);
      assert.deepEqual(done.result.restored, ["shared.md"]);
      assert.equal(read(ran, "shared.md"), "v1");
      assert.equal(read(ran, "b.md"), null);
      assert.deepEqual(
        done.state.codons.map((c) => c.id),
        ["a"],
      );
      assert.deepEqual(done.persisted, [done.result.plan]);

      const again = await runHankForTest({
        hank: HANK,
        continueFrom: {
          ...ran.run,
          state: done.state,
          result: { ...ran.run.result, plan: done.result.plan },
        },
        hooks: checkpointHooks(Promise.resolve(ran.checkpointer), ran.run.clock),
      });
      assert.equal(again.result.status, "completed");
      assert.equal(again.result.runId, "run-2");
      assert.deepEqual(
        again.data("codon.started").map((c) => c.codonId),
        ["b", "c"],
      );
      assert.equal(read(ran, "shared.md"), "v3");
      assert.deepEqual(
        (await ran.checkpointer.list("run-2")).map((r) => `${r.codonId} ${r.checkpointType}`),
        ["b completed", "c completed"],
      );
    } finally {
      ran.run.remove();
    }
  });

  it("leaves the rollback interrupted, with an error, when a step fails", async () => {
    const ran = await runThreeCodons();
    try {
      const broken: Checkpointer = {
        ...ran.checkpointer,
        restore: () => Promise.reject(new Error("disk full")),
      };
      const done = await rollBack(ran, { kind: "last-success" }, { checkpointer: broken });
      assert.equal(done.result.ok, false);
      assert.deepEqual(
        done.events.map((e) => e.type),
        ["rollback.started", "rollback.progress", "error"],
      );
      const message = done.result.ok ? "" : done.result.message;
      assert.match(
        message,
        /^Rollback to c \([0-9a-f]{7}\) failed: disk full\. The work tree may be partly restored/,
      );
      assert.equal(read(ran, "c.md"), "from c");
    } finally {
      ran.run.remove();
    }
  });

  it("refuses a target it cannot resolve without writing anything", async () => {
    const ran = await runThreeCodons();
    try {
      const done = await rollBack(ran, { kind: "named", name: "zzz" });
      assert.deepEqual(done.result, {
        ok: false,
        code: "unknown-target",
        message: 'Codon "zzz" has no checkpoint on the current line (codons with checkpoints: a, b, c).',
      });
      assert.deepEqual(done.events, []);
    } finally {
      ran.run.remove();
    }
  });

  it("puts back the archived files the selection picks and journals rollback.archiveRestore", async () => {
    const ran = await runThreeCodons();
    try {
      const asked: string[][] = [];
      const archives: ArchiveRestorer = {
        openEntries: () =>
          Promise.resolve({
            ok: true,
            entries: [
              {
                id: "e1",
                codonId: "a",
                runId: "run-1",
                archivedAt: "2025-01-01T00:00:00.500Z",
                from: "in.csv",
              },
              {
                id: "e2",
                codonId: "b",
                runId: "run-1",
                archivedAt: "2025-01-01T00:00:01.500Z",
                from: "tmp.txt",
              },
              {
                id: "e3",
                codonId: "b",
                runId: "run-1",
                archivedAt: "2025-01-01T00:00:01.500Z",
                from: "b.md",
              },
            ],
          }),
        restore: (codonId, ids) => {
          asked.push([...ids]);
          return Promise.resolve({ codonId, restoredPaths: ["tmp.txt"], status: "completed" });
        },
      };
      const done = await rollBack(
        ran,
        { kind: "codon", codonId: "a", checkpointType: "completed" },
        { archives },
      );
      assert.deepEqual(asked, [["e2"]]);
      assert.deepEqual(done.events.find((e) => e.type === "rollback.archiveRestore")?.data, {
        codonId: "a",
        restoredPaths: ["tmp.txt"],
        status: "completed",
      });
    } finally {
      ran.run.remove();
    }
  });
});
