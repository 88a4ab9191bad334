import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DataOf } from "../../src/journal/index.ts";
import {
  hankOf,
  runHankForTest,
  scriptedCodon,
  scriptedLoop,
  startHankForTest,
} from "../../src/testing/index.ts";
import { lifecycle } from "./support.ts";

const THREE = hankOf([
  scriptedCodon("a", "@append log.txt a"),
  scriptedCodon("b", "@append log.txt b"),
  scriptedCodon("c", "@append log.txt c"),
]);

function commands(run: { data(type: "run.command"): DataOf<"run.command">[] }): string[] {
  return run.data("run.command").map((d) => `${d.phase} ${d.command}${d.codonId ? ` ${d.codonId}` : ""}`);
}

describe("run control at codon boundaries", () => {
  it("pause parks the run before the next codon until resume; both are journaled", async () => {
    const running = startHankForTest({ hank: THREE });
    running.control.send({ type: "pause" });
    const idle = await running.waitForEvent("server.idle");
    assert.match(idle.data.message, /Run paused before codon a/);
    assert.equal(running.events.filter((e) => e.type === "codon.started").length, 0);
    running.control.send({ type: "resume", source: "tui" });
    const run = await running.done;
    try {
      assert.equal(run.result.status, "completed");
      assert.deepEqual(commands(run), [
        "received pause",
        "applied pause",
        "received resume",
        "applied resume",
      ]);
      assert.deepEqual(run.data("run.command")[2]?.source, "tui");
    } finally {
      run.remove();
    }
  });

  it("skip marks the next codon skipped and the run goes on", async () => {
    const running = afterCodon(startHankForTest({ hank: THREE }), "a", (control) =>
      control.send({ type: "skip" }),
    );
    const run = await running.done;
    try {
      assert.equal(run.result.status, "completed");
      assert.deepEqual(
        run.state.codons.map((c) => `${c.id} ${c.status}`),
        ["a completed", "b skipped", "c completed"],
      );
      assert.deepEqual(commands(run), ["received skip", "applied skip b"]);
    } finally {
      run.remove();
    }
  });

  it("redo runs the last codon again as a new attempt", async () => {
    const running = afterCodon(startHankForTest({ hank: THREE }), "b", (control) =>
      control.send({ type: "redo" }),
    );
    const run = await running.done;
    try {
      assert.deepEqual(lifecycle(run.events), [
        "started a",
        "completed a ok",
        "started b",
        "completed b ok",
        "started b",
        "completed b ok",
        "started c",
        "completed c ok",
      ]);
      assert.equal(run.data("codon.completed")[2]?.attempt, 2);
      assert.deepEqual(commands(run), ["received redo", "applied redo b"]);
    } finally {
      run.remove();
    }
  });

  it("start runs a named codon next; an unknown codon is refused with the reference's message", async () => {
    const running = afterCodon(startHankForTest({ hank: THREE }), "a", (control) => {
      control.send({ type: "start", codonId: "nope" });
      control.send({ type: "start", codonId: "c" });
    });
    const run = await running.done;
    try {
      assert.deepEqual(
        lifecycle(run.events).filter((line) => line.startsWith("started")),
        ["started a", "started c", "started b"],
      );
      const refused = run.data("run.command").find((d) => d.phase === "refused");
      assert.equal(refused?.message, "Unknown codon: nope");
    } finally {
      run.remove();
    }
  });

  it("a redo inside a loop does not expand the loop twice", async () => {
    const hank = hankOf([
      scriptedLoop("L", { type: "iterationLimit", limit: 2 }, [scriptedCodon("x", "@say x")]),
    ]);
    const running = afterCodon(startHankForTest({ hank }), "x#0", (control) =>
      control.send({ type: "redo" }),
    );
    const run = await running.done;
    try {
      assert.deepEqual(lifecycle(run.events), [
        "started x#0",
        "completed x#0 ok",
        "iteration L#0",
        "started x#0",
        "completed x#0 ok",
        "started x#1",
        "completed x#1 ok",
        "final L#1 iteration_limit",
      ]);
    } finally {
      run.remove();
    }
  });

  it("stop ends the run at the boundary as aborted, exit code 0", async () => {
    const running = afterCodon(startHankForTest({ hank: THREE }), "a", (control) =>
      control.send({ type: "stop" }),
    );
    const run = await running.done;
    try {
      assert.equal(run.result.status, "aborted");
      assert.equal(run.result.exitCode, 0);
      assert.deepEqual(
        run.state.codons.map((c) => c.id),
        ["a"],
      );
    } finally {
      run.remove();
    }
  });

  it("a retriable failure under abort parks while a client is attached; retry runs the codon again", async () => {
    const hank = hankOf([
      scriptedCodon("a", "@fail attempts=1 API Error: 503 Service Unavailable\n@say done", {
        onFailure: "abort",
      }),
    ]);
    const running = startHankForTest({ hank, options: { headless: false } });
    const detach = running.control.attachClient();
    const idle = await running.waitForEvent("server.idle");
    assert.match(idle.data.message, /Codon a failed\. Send retry/);
    running.control.send({ type: "retry" });
    const run = await running.done;
    detach();
    try {
      assert.equal(run.result.status, "completed");
      assert.deepEqual(lifecycle(run.events), [
        "started a",
        "completed a failed",
        "started a",
        "completed a ok",
      ]);
    } finally {
      run.remove();
    }
  });

  it("without an attached client the same failure ends the run, as headless runs do", async () => {
    const hank = hankOf([
      scriptedCodon("a", "@fail attempts=1 API Error: 503 Service Unavailable\n@say done", {
        onFailure: "abort",
      }),
    ]);
    const run = await runHankForTest({ hank, options: { headless: false } });
    try {
      assert.equal(run.result.status, "failed");
    } finally {
      run.remove();
    }
  });
});

type Running = ReturnType<typeof startHankForTest>;

/** Acts once, right after `codonId` completed, through the run's bus (caught up from its start). */
function afterCodon(running: Running, codonId: string, act: (control: Running["control"]) => void): Running {
  let acted = false;
  running.bus.subscribe(
    (event) => {
      if (acted || event.type !== "codon.completed" || event.data.codonId !== codonId) return;
      acted = true;
      act(running.control);
    },
    { fromSeq: 0 },
  );
  return running;
}
