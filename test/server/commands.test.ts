import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { codon, hankOf, serveHank, type TestClient } from "./support.ts";

const FLAKY = "@fail attempts=1 API Error: 503 Service Unavailable\n@say recovered";

function commandsOf(events: readonly JournaledEvent[]): string[] {
  return events.flatMap((e) => (e.type === "run.command" ? [`${e.data.phase} ${e.data.command}`] : []));
}

function lifecycle(events: readonly JournaledEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === "codon.started") return [`started ${e.data.codonId}`];
    if (e.type === "codon.completed") return [`${e.data.success ? "completed" : "failed"} ${e.data.codonId}`];
    if (e.type === "state.transition" && e.data.transition.data.status === "skipped")
      return [`skipped ${e.data.codonId}`];
    return [];
  });
}

const runEnded = (e: JournaledEvent) =>
  e.type === "state.transition" &&
  (e.data.transitionType === "RunCompleted" || e.data.transitionType === "RunFailed");

async function parked(client: TestClient): Promise<void> {
  await client.waitForEvent("server.idle");
}

describe("commands on a parked run (retriable failure under abort, a readandwrite client attached)", () => {
  it("codon.next retries the failed codon and the run completes; readonly clients are refused", async () => {
    const served = await serveHank(hankOf([codon("a", FLAKY), codon("b", "@say b")]), { start: false });
    try {
      const writer = await served.connect("readandwrite");
      const reader = await served.connect("readonly");
      served.host.start(served.server.port);
      await parked(writer);
      reader.send("codon.next");
      const refusal = await reader.waitForUnjournaled("error");
      assert.deepEqual(refusal, {
        message: "Cannot execute state-modifying commands in read-only mode",
        fatal: false,
        context: "Attempted command: codon.next",
        severity: "operation",
        code: "INSUFFICIENT_PERMISSIONS",
      });
      assert.equal(writer.unjournaled("error").length, 0, "a refusal reaches its sender only");
      writer.send("codon.forceStop");
      const noCodon = await writer.waitForUnjournaled("error");
      assert.equal(noCodon.message, "No codon is currently running");
      writer.send("codon.next");
      await writer.waitForEvent("state.transition", runEnded);
      const end = await served.host.ended;
      assert.equal(end.exitCode, 0);
      assert.equal(end.result?.kind === "ran" && end.result.outcome, "completed");
      assert.deepEqual(lifecycle(writer.events()), [
        "started a",
        "failed a",
        "started a",
        "completed a",
        "started b",
        "completed b",
      ]);
      assert.deepEqual(commandsOf(served.journal()), ["received resume", "applied resume"]);
      const received = served.journal().find((e) => e.type === "run.command");
      assert.equal(
        received?.type === "run.command" && received.data.source,
        `server:${writer.client.clientId}`,
      );
      assert.equal(served.journal().filter((e) => e.type === "error" && e.data.code !== undefined).length, 0);
    } finally {
      await served.remove();
    }
  });

  it("codon.skip skips the failed codon, codon.start on a parked run is refused by the run and told to clients", async () => {
    const served = await serveHank(hankOf([codon("a", FLAKY), codon("b", "@say b")]), { start: false });
    try {
      const writer = await served.connect("readandwrite");
      served.host.start(served.server.port);
      await parked(writer);
      writer.send("codon.start", { codonId: "b" });
      const refused = await writer.waitForUnjournaled("error");
      assert.deepEqual(refused, {
        message: "Codon a is waiting for a retry; retry, skip or stop first",
        fatal: false,
        context: "Attempted command: codon.start",
        severity: "operation",
        codon: "a",
      });
      writer.send("codon.skip");
      await writer.waitForEvent("state.transition", runEnded);
      assert.deepEqual(lifecycle(writer.events()), [
        "started a",
        "failed a",
        "skipped a",
        "started b",
        "completed b",
      ]);
      assert.deepEqual(commandsOf(served.journal()), [
        "received start",
        "refused start",
        "received skip",
        "applied skip",
      ]);
    } finally {
      await served.remove();
    }
  });
});

describe("commands on a running codon", () => {
  it("codon.next is refused while a codon runs; codon.forceStop stops it and the run ends aborted", async () => {
    const served = await serveHank(
      hankOf([codon("a", "@say a"), codon("hold", "@sleep 600000"), codon("c", "@say c")]),
    );
    try {
      const writer = await served.connect("readandwrite");
      await writer.waitForEvent(
        "codon.started",
        (e) => e.type === "codon.started" && e.data.codonId === "hold",
      );
      writer.send("codon.next");
      const busy = await writer.waitForUnjournaled("error");
      assert.equal(
        busy.message,
        "Codon hold is running; codon.next continues a run that waits (server.idle)",
      );
      assert.equal(busy.codon, "hold");
      const mark = writer.frames.length;
      writer.send("rollback.toLastSuccess");
      const notNow = await writer.waitForUnjournaled("error", mark);
      assert.match(String(notNow.message), /^Cannot roll back now: codon hold is running\./);
      writer.send("codon.forceStop", { reason: "enough" });
      await writer.waitForEvent("state.transition", runEnded);
      const end = await served.host.ended;
      assert.equal(end.result?.kind === "ran" && end.result.outcome, "aborted");
      assert.equal(end.exitCode, 0);
      const completed = writer.events().filter((e) => e.type === "codon.completed");
      assert.deepEqual(
        completed.map((e) => e.type === "codon.completed" && [e.data.codonId, e.data.success]),
        [
          ["a", true],
          ["hold", false],
        ],
      );
    } finally {
      await served.remove();
    }
  });
});

describe("ping", () => {
  it("ping answers the sender; ping.broadcast reaches every client with the sender's id", async () => {
    const served = await serveHank(hankOf([codon("hold", "@sleep 600000")]));
    try {
      const one = await served.connect("readandwrite");
      const two = await served.connect("readonly");
      one.send("ping");
      const pong = await one.waitForUnjournaled("pong");
      assert.equal(pong.message, "pong");
      assert.equal(typeof pong.timestamp, "string");
      assert.equal(pong.clientId, undefined);
      one.send("ping.broadcast");
      const heard = await two.waitForUnjournaled("pong");
      assert.equal(heard.clientId, one.client.clientId);
      await one.waitFor(
        (f) => f.kind === "unjournaled" && f.type === "pong" && f.data.clientId !== undefined,
      );
      assert.equal(two.unjournaled("pong").length, 1);
    } finally {
      await served.remove();
    }
  });
});

describe("shutdown", () => {
  it("server.shutdown stops the live run with a notice; its reason decides the exit code", async () => {
    for (const [reason, exitCode] of [
      [undefined, 0],
      ["out of time", 1],
    ] as const) {
      const served = await serveHank(hankOf([codon("hold", "@sleep 600000")]));
      try {
        const writer = await served.connect("readandwrite");
        const reader = await served.connect("readonly");
        await writer.waitForEvent("codon.started");
        reader.send("server.shutdown");
        assert.equal((await reader.waitForUnjournaled("error")).code, "INSUFFICIENT_PERMISSIONS");
        writer.send("server.shutdown", reason === undefined ? undefined : { reason });
        const notice = await reader.waitForUnjournaled("info");
        assert.equal(
          notice.message,
          "Shutting down: waiting for agent process to exit. Send server.force_shutdown to force quit.",
        );
        const end = await served.host.ended;
        assert.deepEqual(
          [end.reason, end.exitCode, end.forced],
          [reason ?? "client request", exitCode, false],
        );
        writer.send("codon.next");
        assert.equal(
          writer.unjournaled("error").length,
          0,
          "state-changing commands are dropped while shutting down",
        );
      } finally {
        await served.remove();
      }
    }
  });

  it("server.force_shutdown ends at once with exit code 1", async () => {
    const served = await serveHank(hankOf([codon("hold", "@sleep 600000")]));
    try {
      const writer = await served.connect("readandwrite");
      await writer.waitForEvent("codon.started");
      writer.send("server.force_shutdown");
      const end = await served.host.ended;
      assert.deepEqual([end.exitCode, end.forced, end.reason], [1, true, "client request"]);
    } finally {
      await served.remove();
    }
  });
});
