import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { codon, hankOf, serveHank } from "./support.ts";

const KEEP = { checkpointedFiles: ["*.txt"] };
const HANK = hankOf([
  codon("a", "@write notes.txt from a", KEEP),
  codon("b", "@write notes.txt from b\n@fail API Error: 503 Service Unavailable", KEEP),
  codon("c", "@say c", KEEP),
]);

const isType =
  (type: string) =>
  (event: JournaledEvent): boolean =>
    event.type === type;

describe("checkpoints and rollback over the protocol (git checkpoints)", () => {
  it("lists checkpoints, rolls back a parked run, continues it, rolls back again with autoRestart, then to a checkpoint by its sha", async () => {
    const served = await serveHank(HANK, { git: true, stayOpen: true, start: false });
    try {
      const writer = await served.connect("readandwrite");
      const reader = await served.connect("readonly");
      served.host.start(served.server.port);
      await writer.waitForEvent("server.idle");
      const notes = () => readFileSync(join(served.exec, "agentRoot", "notes.txt"), "utf8");
      assert.equal(notes(), "from b");

      reader.send("checkpoint.list");
      const list = await writer.waitForUnjournaled("checkpoint.list");
      const runId = served
        .journal()
        .find((e) => e.type === "state.transition" && e.data.transitionType === "RunStarted");
      assert.equal(list.runId, runId?.type === "state.transition" ? runId.data.runId : "?");
      assert.equal(list.currentBranch, `run/${String(list.runId)}`);
      const checkpoints = list.checkpoints as {
        codonId: string;
        checkpointType: string;
        status: string;
        sha: string;
      }[];
      assert.deepEqual(
        checkpoints.map((c) => `${c.codonId} ${c.checkpointType} ${c.status}`),
        ["a completed completed", "b error failed"],
      );

      let mark = writer.frames.length;
      writer.send("rollback.toCodon", { codonId: "nope", checkpointType: "completed" });
      const unknown = await writer.waitForUnjournaled("error", mark);
      assert.match(String(unknown.message), /nope/);
      assert.equal(
        served.host.status.parked !== undefined,
        true,
        "a refused rollback leaves the parked run waiting",
      );

      mark = writer.frames.length;
      writer.send("rollback.toCodon", { codonId: "a", checkpointType: "completed" });
      writer.send("codon.next");
      const gated = await writer.waitForUnjournaled("error", mark);
      assert.equal(gated.code, "ROLLBACK_IN_PROGRESS");
      assert.equal(gated.context, "Attempted command: codon.next");
      const idle = await writer.waitForEvent(
        "server.idle",
        (e) => e.type === "server.idle" && e.data.reason === "rollback-completed",
      );
      assert.equal(
        idle.type === "server.idle" && idle.data.message,
        "Rolled back to a (completed). Use 'codon.next' to continue.",
      );
      assert.equal(notes(), "from a");
      assert.equal(served.host.phase, "ended");
      const journal = served.journal();
      const stopped = journal.findIndex(
        (e) => e.type === "state.transition" && e.data.transitionType === "RunFailed",
      );
      assert.ok(
        stopped >= 0 && stopped < journal.findIndex(isType("rollback.started")),
        "the parked run is stopped first",
      );

      mark = writer.frames.length;
      writer.send("codon.next");
      await writer.waitFor((f) => f.kind === "event" && f.event.type === "server.idle", mark);
      assert.equal(served.host.phase, "live");
      assert.equal(served.host.status.parked !== undefined, true);

      mark = writer.frames.length;
      writer.send("rollback.toLastSuccess", { autoRestart: true });
      const completed = await writer.waitFor(
        (f) => f.kind === "event" && f.event.type === "rollback.completed",
        mark,
      );
      assert.equal(
        completed.kind === "event" &&
          completed.event.type === "rollback.completed" &&
          completed.event.data.autoRestart,
        true,
      );
      await writer.waitFor(
        (f) => f.kind === "event" && f.event.type === "server.idle",
        writer.frames.indexOf(completed),
      );
      writer.send("codon.skip");
      await writer.waitFor(
        (f) =>
          f.kind === "event" &&
          f.event.type === "state.transition" &&
          f.event.data.transitionType === "RunCompleted",
      );
      // The run is over once its runner returns (snapshot written, lock released), a moment after
      // RunCompleted is broadcast.
      await phaseBecomes(() => served.host.phase, "ended");

      const aCompleted = checkpoints.find((c) => c.codonId === "a" && c.checkpointType === "completed");
      mark = writer.frames.length;
      writer.send("rollback.toCheckpoint", { checkpointSha: "0000000" });
      // Between runs the target is checked under the execution's lock: the refusal is journaled.
      const noSuchSha = await writer.waitFor((f) => f.kind === "event" && f.event.type === "error", mark);
      assert.deepEqual(noSuchSha.kind === "event" && noSuchSha.event.data, {
        message: 'No checkpoint matches "0000000".',
        fatal: false,
      });
      writer.send("rollback.toCheckpoint", { checkpointSha: aCompleted?.sha.slice(0, 8) ?? "?" });
      const back = await writer.waitFor(
        (f) =>
          f.kind === "event" &&
          f.event.type === "server.idle" &&
          f.event.data.reason === "rollback-completed",
        mark,
      );
      assert.equal(
        back.kind === "event" && back.event.type === "server.idle" && back.event.data.message,
        "Rolled back to a (completed). Use 'codon.next' to continue.",
      );
      assert.equal(notes(), "from a");
      writer.send("server.shutdown");
      const end = await served.host.ended;
      assert.equal(end.exitCode, 0);
      assert.equal(end.result?.kind === "ran" && end.result.outcome, "completed");
      const rollbacks = served.journal().filter(isType("rollback.completed")).length;
      assert.equal(rollbacks, 3);
      const last = served.journal().at(-1)?.seq ?? 0;
      await Promise.all([reader.caughtUp(last), writer.caughtUp(last)]);
      assert.deepEqual(
        reader.events().map((e) => e.seq),
        writer.events().map((e) => e.seq),
      );
    } finally {
      await served.remove();
    }
  });
});

/** Waits (at most 10 s) until the host reaches `phase`, then asserts it. */
async function phaseBecomes(phase: () => string, wanted: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (phase() !== wanted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(phase(), wanted);
}
