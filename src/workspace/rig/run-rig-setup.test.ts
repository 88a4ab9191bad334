import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { buildAgentEnv } from "../agent-env.ts";
import { createFakeClock, groupEnds, stopsRunning } from "../process/test-support.ts";
import { commandOp, copyOp, type RigFixture, rigFixture, rigRecorder, TEST_PATH } from "./test-support.ts";

let fx: RigFixture;
beforeEach(() => {
  fx = rigFixture();
});
afterEach(() => fx.remove());

test("commands run in agentRoot by default and in the last copied target for lastCopied", async () => {
  fx.write(join(fx.hankDir, "tpl", "a.txt"), "");
  const h = rigRecorder(fx);
  const result = await h.run([
    commandOp("pwd"),
    copyOp("tpl", "work/tpl"),
    commandOp("pwd; ls", "lastCopied"),
    commandOp("pwd", "project"),
  ]);
  assert.equal(result.ok, true);
  assert.deepEqual(h.ofType("rig.output"), [
    { codonId: "setup", stream: "stdout", line: fx.agentRoot, commandIndex: 0 },
    { codonId: "setup", stream: "stdout", line: join(fx.agentRoot, "work", "tpl"), commandIndex: 2 },
    { codonId: "setup", stream: "stdout", line: "a.txt", commandIndex: 2 },
    { codonId: "setup", stream: "stdout", line: fx.agentRoot, commandIndex: 3 },
  ]);
  assert.equal(h.ofType("rig.setup.completed")[0]?.commandCount, 4);
  assert.equal(h.ofType("rig.setup.completed")[0]?.rigType, "commands");
});

test("lastCopied with no copy before it runs in agentRoot", async () => {
  const h = rigRecorder(fx);
  await h.run([commandOp("pwd", "lastCopied")]);
  assert.deepEqual(
    h.ofType("rig.output").map((d) => d.line),
    [fx.agentRoot],
  );
});

test("output lines are throttled per stream and batched, never dropped", async () => {
  const h = rigRecorder(fx);
  const result = await h.run([commandOp("echo a; echo b; echo c; echo e1 >&2; echo e2 >&2")]);
  assert.equal(result.ok, true);
  const byStream = (stream: string) =>
    h
      .ofType("rig.output")
      .filter((d) => d.stream === stream)
      .map((d) => d.line);
  // The fake clock never advances: the first line of each stream goes out at once, the rest wait
  // for the interval and are flushed together when the command ends.
  assert.deepEqual(byStream("stdout"), ["a", "b\nc"]);
  assert.deepEqual(byStream("stderr"), ["e1", "e2"]);
  assert.equal(h.clock.pendingTimers(), 0);
});

test("a failing command fails the setup and stops it", async () => {
  const h = rigRecorder(fx);
  const result = await h.run([
    commandOp("echo before"),
    commandOp("echo oops >&2; exit 1"),
    commandOp("touch never"),
  ]);
  assert.equal(result.ok, false);
  assert.equal(result.aborted, false);
  assert.deepEqual(result.failures, [
    {
      commandIndex: 1,
      opType: "command",
      failureType: "command_failed",
      message: "Command failed with exit code 1: echo oops >&2; exit 1",
      exitCode: 1,
      outputTail: ["oops"],
      ignored: false,
    },
  ]);
  assert.deepEqual(h.ofType("rig.setup.failed"), [
    { codonId: "setup", failureType: "command_failed", exitCode: 1, commandIndex: 1, ignored: false },
  ]);
  assert.deepEqual(h.ofType("rig.setup.completed"), []);
  assert.equal(existsSync(join(fx.agentRoot, "never")), false);
  assert.equal(result.completed, null);
});

test("allowFailure reports the failure as ignored and the setup continues", async () => {
  const h = rigRecorder(fx);
  const result = await h.run([commandOp("exit 2", "project", true), commandOp("touch after")]);
  assert.equal(result.ok, true);
  assert.equal(result.failures[0]?.ignoredBecause, "allowFailure");
  assert.deepEqual(h.ofType("rig.setup.failed"), [
    { codonId: "setup", failureType: "command_failed", exitCode: 2, commandIndex: 0, ignored: true },
  ]);
  assert.deepEqual(h.ofType("error"), [
    {
      message:
        "Rig setup operation failed but continuing (allowFailure=true): Command failed with exit code 2: exit 2",
      codon: "setup",
      fatal: false,
      severity: "operation",
      context: "Codon setup - command operation (item 1)",
    },
  ]);
  assert.equal(existsSync(join(fx.agentRoot, "after")), true);
  assert.equal(
    h.ofType("info").at(-1)?.message,
    "Rig setup completed for codon 'setup' (0ms, 1 succeeded, 1 failed)",
  );
  assert.equal(h.ofType("rig.setup.completed").length, 1);
});

test("ignoreRigFailures lets every failing operation through, copies included", async () => {
  const h = rigRecorder(fx);
  const result = await h.run([copyOp("missing", "x"), commandOp("exit 1"), commandOp("touch after")], {
    ignoreRigFailures: true,
  });
  assert.equal(result.ok, true);
  assert.deepEqual(
    result.failures.map((f) => [f.opType, f.failureType, f.ignoredBecause, f.message]),
    [
      ["copy", "other", "ignoreRigFailures", 'source path "missing" does not exist'],
      ["command", "command_failed", "ignoreRigFailures", "Command failed with exit code 1: exit 1"],
    ],
  );
  assert.deepEqual(h.ofType("rig.setup.failed"), [
    { codonId: "setup", failureType: "other", commandIndex: 0, ignored: true },
    { codonId: "setup", failureType: "command_failed", exitCode: 1, commandIndex: 1, ignored: true },
  ]);
  assert.equal(result.lastCopied, null);
  assert.equal(existsSync(join(fx.agentRoot, "after")), true);
});

test("commands see the agent environment (reference: env in rig setup)", async () => {
  const env = buildAgentEnv(
    {
      PATH: TEST_PATH,
      HANKWEAVE_FOO: "bar",
      ANTHROPIC_BASE_URL: "http://x",
      HANKWEAVE_ANTHROPIC_BASE_URL: "unset",
    },
    { STAGE: "rig" },
  );
  const h = rigRecorder(fx);
  await h.run(
    [
      commandOp(
        'echo "$FOO $STAGE $(printenv ANTHROPIC_BASE_URL || echo removed) $(printenv HOME || echo none)"',
      ),
    ],
    { env },
  );
  assert.deepEqual(
    h.ofType("rig.output").map((d) => d.line),
    ["bar rig removed none"],
  );
});

test("a command past its timeout fails with failure type timeout", async () => {
  const clock = createFakeClock();
  const h = rigRecorder(fx, clock, (event) => {
    if (event.type === "rig.output") clock.advance(120_000);
  });
  const result = await h.run([commandOp("echo started; sleep 30")], { commandTimeoutMs: 120_000 });
  assert.equal(result.ok, false);
  assert.deepEqual(h.ofType("rig.setup.failed"), [
    { codonId: "setup", failureType: "timeout", commandIndex: 0, ignored: false },
  ]);
  assert.equal(result.failures[0]?.message, "Command timed out after 120000 ms: echo started; sleep 30");
});

test("abort kills the running command's group, grandchild included, and ends the setup", async () => {
  let grandchild = 0;
  const h = rigRecorder(fx, createFakeClock(), (event) => {
    if (event.type !== "rig.output") return;
    grandchild = Number(event.data.line);
    h.controller.abort();
  });
  const pidFile = join(fx.agentRoot, "group.pid");
  const result = await h.run([
    commandOp(`echo $$ > ${pidFile}; sleep 30 & echo $!; wait`),
    commandOp("touch never"),
  ]);
  assert.equal(result.ok, false);
  assert.equal(result.aborted, true);
  assert.deepEqual(result.failures, []);
  assert.deepEqual(h.ofType("rig.setup.failed"), []);
  assert.deepEqual(h.ofType("rig.setup.completed"), []);
  assert.ok(grandchild > 0);
  assert.equal(await stopsRunning(grandchild), true, "the grandchild still runs");
  assert.equal(await groupEnds(Number(readFileSync(pidFile, "utf8"))), true, "the group still has members");
  assert.equal(existsSync(join(fx.agentRoot, "never")), false);
});

test("deferCompletion leaves rig.setup.completed to the caller and returns its payload", async () => {
  const clock = createFakeClock(5_000);
  const h = rigRecorder(fx, clock);
  const result = await h.run([commandOp("true")], { deferCompletion: true });
  assert.deepEqual(h.ofType("rig.setup.completed"), []);
  assert.deepEqual(result.completed, {
    codonId: "setup",
    rigType: "command",
    commandCount: 1,
    durationMs: 0,
    createdCheckpoint: false,
  });
});
