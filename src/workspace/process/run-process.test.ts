import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { OutputStream } from "./output-sink.ts";
import { runProcess } from "./run-process.ts";
import { createFakeClock, groupEnds, stopsRunning, tempDir } from "./test-support.ts";

const PATH = process.env.PATH ?? "/usr/bin:/bin";

function bash(script: string, extra: { cwd?: string; env?: Record<string, string> } = {}) {
  const lines: Array<[OutputStream, string]> = [];
  const clock = createFakeClock();
  const controller = new AbortController();
  const options = {
    file: "bash",
    args: ["-c", script],
    cwd: extra.cwd ?? process.cwd(),
    env: extra.env ?? { PATH },
    clock,
    signal: controller.signal,
    onLine: (stream: OutputStream, line: string) => lines.push([stream, line]),
  };
  return { lines, clock, controller, options };
}

test("a command's lines, exit code and end are reported", async () => {
  const run = bash("echo out; echo err >&2; exit 3");
  const result = await runProcess(run.options);
  assert.equal(result.end, "exited");
  assert.equal(result.exitCode, 3);
  assert.equal(result.signal, null);
  assert.equal(result.truncated, false);
  assert.equal(result.outputBytes, 8);
  assert.deepEqual(
    run.lines.sort((a, b) => a[0].localeCompare(b[0])),
    [
      ["stderr", "err"],
      ["stdout", "out"],
    ],
  );
});

test("the child gets exactly the given environment and working directory", async () => {
  const dir = tempDir("process");
  try {
    const run = bash('echo "$FOO|$(printenv HOME || echo none)"; pwd', {
      cwd: dir.dir,
      env: { PATH, FOO: "bar" },
    });
    await runProcess(run.options);
    assert.deepEqual(run.lines, [
      ["stdout", "bar|none"],
      ["stdout", dir.dir],
    ]);
  } finally {
    dir.remove();
  }
});

test("a missing working directory is a spawn failure with a clear message", async () => {
  const run = bash("true", { cwd: join("/nonexistent", "hankweave-missing") });
  const result = await runProcess(run.options);
  assert.equal(result.end, "spawn-failed");
  assert.equal(result.spawnError, 'working directory "/nonexistent/hankweave-missing" does not exist');
  assert.equal(result.pid, null);
});

test("an unknown program is a spawn failure", async () => {
  const run = bash("true");
  const result = await runProcess({ ...run.options, file: "hankweave-no-such-program" });
  assert.equal(result.end, "spawn-failed");
  assert.match(result.spawnError ?? "", /ENOENT/);
});

test("an already aborted signal starts nothing", async () => {
  const run = bash("echo never");
  run.controller.abort();
  const result = await runProcess(run.options);
  assert.equal(result.end, "aborted");
  assert.equal(result.pid, null);
  assert.deepEqual(run.lines, []);
});

test("abort kills the whole group at once, the background grandchild included", async () => {
  const run = bash("sleep 30 & echo $!; wait");
  let grandchild = 0;
  const result = await runProcess({
    ...run.options,
    onLine: (_stream, line) => {
      grandchild = Number(line);
      run.controller.abort();
    },
  });
  assert.equal(result.end, "aborted");
  assert.equal(result.signal, "SIGTERM");
  assert.ok(grandchild > 0);
  assert.equal(await stopsRunning(grandchild), true, "the grandchild still runs");
  assert.equal(await groupEnds(result.pid ?? -1), true, "the group still has members");
  assert.equal(run.clock.pendingTimers(), 0);
});

test("a group that ignores SIGTERM gets SIGKILL after the grace period on the clock", async () => {
  const run = bash("trap '' TERM; echo ready; while :; do sleep 1; done");
  const result = await runProcess({
    ...run.options,
    killGraceMs: 5_000,
    onLine: () => {
      run.controller.abort();
      run.clock.advance(4_999);
      assert.equal(run.clock.pendingTimers(), 1);
      run.clock.advance(1);
    },
  });
  assert.equal(result.end, "aborted");
  assert.equal(result.signal, "SIGKILL");
  assert.equal(await groupEnds(result.pid ?? -1), true, "the group still has members");
});

test("the timeout stops the group and is reported as timed-out", async () => {
  const run = bash("echo started; sleep 30");
  const result = await runProcess({
    ...run.options,
    timeoutMs: 60_000,
    onLine: () => run.clock.advance(60_000),
  });
  assert.equal(result.end, "timed-out");
  assert.equal(result.exitCode, null);
  assert.equal(await groupEnds(result.pid ?? -1), true, "the group still has members");
});

test("a descendant that left the group and holds the pipes is given up on after SIGKILL and a grace", async () => {
  const run = bash("setsid bash -c 'echo $$; exec sleep 30' & wait");
  let escaped = 0;
  try {
    const result = await runProcess({
      ...run.options,
      killGraceMs: 100,
      onLine: (_stream, line) => {
        escaped = Number(line);
        run.controller.abort();
        run.clock.advance(100);
        run.clock.advance(100);
      },
    });
    assert.equal(result.end, "aborted");
    assert.ok(escaped > 0);
  } finally {
    if (escaped > 0) process.kill(escaped, "SIGKILL");
  }
});

test("output past the cap is dropped and reported as truncated", async () => {
  const run = bash("for i in 1 2 3 4 5; do echo line$i; done");
  const result = await runProcess({ ...run.options, maxOutputBytes: 18 });
  assert.equal(result.end, "exited");
  assert.equal(result.truncated, true);
  assert.equal(result.outputBytes, 30);
  assert.deepEqual(run.lines, [
    ["stdout", "line1"],
    ["stdout", "line2"],
    ["stdout", "line3"],
  ]);
});
