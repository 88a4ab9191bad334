import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { codon, hankOf, serveHank } from "./support.ts";

/** A codon that runs until the test creates `go` in the workspace (the agent's shell waits, not the test). */
const GATE = "@run while [ ! -e go ]; do sleep 0.02; done\n@say through";

function lifecycle(events: readonly JournaledEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === "codon.started") return [`started ${e.data.codonId}`];
    if (e.type === "codon.completed") return [`${e.data.success ? "completed" : "failed"} ${e.data.codonId}`];
    if (e.type === "state.transition" && e.data.transition.data.status === "skipped")
      return [`skipped ${e.data.codonId}`];
    return [];
  });
}

function commandsOf(events: readonly JournaledEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === "run.command" && e.data.phase !== "received"
      ? [`${e.data.phase} ${e.data.command}: ${e.data.message}`]
      : [],
  );
}

const runEnded = (e: JournaledEvent) =>
  e.type === "state.transition" &&
  (e.data.transitionType === "RunCompleted" || e.data.transitionType === "RunFailed");

describe("steering a running run at its codon boundaries", () => {
  it("codon.redo reruns the last codon, codon.start runs the named one next, a skip of an unknown codon is refused", async () => {
    const served = await serveHank(
      hankOf([codon("a", GATE), codon("b", "@say b"), codon("c", "@say c"), codon("d", "@say d")]),
    );
    try {
      const writer = await served.connect("readandwrite");
      const reader = await served.connect("readonly");
      await writer.waitForEvent("codon.started");
      writer.send("codon.redo");
      writer.send("codon.start", { codonId: "d" });
      writer.send("codon.skip", { codonId: "nope" });
      reader.send("codon.start", { codonId: "b" });
      assert.equal((await reader.waitForUnjournaled("error")).code, "INSUFFICIENT_PERMISSIONS");
      writeFileSync(join(served.exec, "agentRoot", "go"), "");
      const refused = await writer.waitForUnjournaled("error");
      assert.deepEqual(refused, {
        message: "Unknown codon: nope",
        fatal: false,
        context: "Attempted command: codon.skip",
        severity: "operation",
        codon: "nope",
      });
      await writer.waitForEvent("state.transition", runEnded);
      assert.equal((await served.host.ended).exitCode, 0);
      assert.deepEqual(lifecycle(writer.events()), [
        "started a",
        "completed a",
        "started a",
        "completed a",
        "started d",
        "completed d",
        "started b",
        "completed b",
        "started c",
        "completed c",
      ]);
      assert.deepEqual(commandsOf(served.journal()), [
        "applied redo: Redoing codon a",
        "applied start: Starting codon d",
        "refused skip: Unknown codon: nope",
      ]);
      // Each client's socket is flushed on its own clock: the refusal, sent before the run's end, is in
      // once the reader has the end too.
      await reader.waitForEvent("state.transition", runEnded);
      assert.equal(reader.unjournaled("error").length, 2, "the run's refusal reaches every client");
    } finally {
      await served.remove();
    }
  });

  it("after the run: server.idle all-codons-completed; redo is refused, codon.start on a finished plan finds no more codons", async () => {
    const served = await serveHank(hankOf([codon("a", "@say a"), codon("b", "@say b")]), {
      stayOpen: true,
      start: false,
    });
    try {
      const writer = await served.connect("readandwrite");
      served.host.start(served.server.port);
      const idle = await writer.waitForEvent("server.idle");
      assert.equal(idle.type === "server.idle" && idle.data.reason, "all-codons-completed");
      // Sent at once: the run may still be closing down; the command waits for the host to move on.
      writer.send("codon.redo");
      const refused = await writer.waitForUnjournaled("error");
      assert.deepEqual(refused, {
        message: "No run is live: continue with codon.next, or roll back first",
        fatal: false,
        context: "Attempted command: codon.redo",
        severity: "operation",
      });
      assert.equal(served.host.phase, "ended", "a refused command starts nothing");
      const mark = writer.frames.length;
      writer.send("codon.start", { codonId: "a" });
      const nothing = await writer.waitForUnjournaled("error", mark);
      assert.deepEqual(nothing, { message: "No more codons to run", fatal: false });
      assert.deepEqual(lifecycle(served.journal()), ["started a", "completed a", "started b", "completed b"]);
      assert.equal(served.host.phase, "ended");
    } finally {
      await served.remove();
    }
  });
});

describe("refusals of every other command", () => {
  it("a read-only client may only query; a query with bad data or an unknown run is answered with an error", async () => {
    const served = await serveHank(hankOf([codon("hold", "@sleep 600000")]));
    try {
      const reader = await served.connect("readonly");
      await reader.waitForEvent("codon.started");
      const steering = [
        ["codon.forceStop", undefined],
        ["codon.skip", undefined],
        ["server.force_shutdown", undefined],
        ["ping.broadcast", undefined],
        ["rollback.toCheckpoint", { checkpointSha: "abcd" }],
        ["rollback.toCodon", { codonId: "hold", checkpointType: "start" }],
        ["rollback.toLastSuccess", undefined],
      ] as const;
      for (const [type, data] of steering) reader.send(type, data);
      reader.send("history.sync", { afterSeq: -1 });
      reader.send("checkpoint.list", { runId: "no-such-run" });
      const errors = async (count: number) => {
        await reader.waitFor(() => reader.unjournaled("error").length >= count);
        return reader.unjournaled("error");
      };
      const replies = await errors(steering.length + 2);
      // Refusals come in the order sent; a malformed message is answered before the gates run.
      const refusals = replies.filter((r) => r.code !== undefined);
      assert.deepEqual(
        refusals.map((r) => `${r.code} ${r.context}`),
        steering.map(([type]) => `INSUFFICIENT_PERMISSIONS Attempted command: ${type}`),
      );
      const [badSync, unknownRun] = replies.filter((r) => r.code === undefined);
      assert.equal(badSync?.message, "Invalid command format");
      assert.match(String(badSync?.context), /^data\.afterSeq: /);
      assert.match(
        String(unknownRun?.message),
        /^The checkpoints could not be read: Unknown run: no-such-run\. This execution.s runs: [0-9a-z-]+$/,
      );
      assert.equal(served.host.status.running?.id, "hold", "nothing reached the run");
    } finally {
      await served.remove();
    }
  });
});
