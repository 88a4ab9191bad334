import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { runLoopsCommand } from "../../src/cli/loops/loops-command.ts";
import { openPostgresLoopStore } from "../../src/daemon/store/postgres-loop-store.ts";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { admitted, newRun } from "../../src/testing/loops-store-conformance/store-fixture.ts";
import { startTestPostgres } from "../../src/testing/postgres-server.ts";
import { captureIo } from "../cli-tools/capture-io.ts";
import { loopFixture } from "../loops/loop-fixture.ts";
import {
  admitCopies,
  bundleDaemon,
  type DaemonProcess,
  ONE_GENERATION,
  runEnd,
  spawnDaemon,
} from "./multi-daemon-fixture.ts";

/**
 * Three daemon processes on one PostgreSQL store share many Loops (one scripted codon, a command gate
 * that passes once the body ran): every run must end as the same Loop ends driven alone, each
 * generation's codon completed exactly once, while one daemon after another is stopped mid-work (the
 * first with SIGTERM, a drain; then with SIGKILL) and restarted.
 *
 * A generation costs about a second of CPU (runner, git checkpoints, gate processes), so CI runs 12
 * Loops; `HANKWEAVE_MULTI_DAEMON_RUNS=50` runs the full 50 (about a minute on two idle cores).
 */
const RUNS = Number(process.env.HANKWEAVE_MULTI_DAEMON_RUNS ?? 12);
const DAEMONS = 3;
/** One run at a time per daemon: three generations at once keep two cores busy. */
const WORKERS = 1;
/** Runs that end between two stops, and how many stops at most (each restart costs a daemon start). */
const ENDED_BETWEEN_STOPS = Math.max(1, Math.floor(RUNS / 12));
const MAX_STOPS = Math.max(4, Math.floor(RUNS / 5));

const server = await startTestPostgres();
after(() => (server.ok ? server.stop() : undefined));
if (!server.ok) process.stdout.write(`# skipping the multi-daemon test: ${server.reason}\n`);

test(`three daemons on PostgreSQL share ${RUNS} Loops, stopped and restarted one after another`, {
  skip: server.ok ? false : server.reason,
  timeout: 300_000,
}, async () => {
  if (!server.ok) return;
  const fx = await loopFixture(ONE_GENERATION);
  const bundle = await bundleDaemon();
  // A schema of this process's own: a server given by HANKWEAVE_TEST_POSTGRES_URL can be reused.
  const schema = `multi_daemon_${process.pid}_${Date.now()}`;
  const store = await openPostgresLoopStore({ url: server.url, schema, maxConnections: 4 });
  const daemons: DaemonProcess[] = [];
  try {
    // The outcome on one daemon: the same Loop, driven alone, in process.
    const alone = await fx.admit();
    if (alone.kind !== "admitted") throw new Error(alone.kind);
    await driveRun(alone.run.id, fx.deps(), { follow: true });
    const reference = await runEnd(fx.store, alone.run.id, alone.run.dir);
    assert.equal(reference.outcome, "done: gates_passed");

    const home = join(fx.dir, "shared-home");
    const runs = await admitCopies(fx.dir, store, home, RUNS);
    const start = () =>
      spawnDaemon({
        bundle: bundle.path,
        url: server.url,
        schema,
        home,
        workers: WORKERS,
        env: fx.deps().env,
      });
    for (let slot = 0; slot < DAEMONS; slot += 1) daemons.push(start());
    await Promise.all(daemons.map((d) => d.ready));
    const holders = new Set<string>();
    const exits: (number | null)[] = [];
    let endedAtLastStop = 0;
    for (;;) {
      const live = await store.listRuns({ live: true, limit: RUNS });
      const held = live.flatMap((run) => (run.leaseOwner === null ? [] : [run.leaseOwner.split(":")[1]]));
      for (const pid of held) holders.add(pid ?? "");
      if (live.length === 0) break;
      const ended = RUNS - live.length;
      // The next daemon to stop is one in the middle of a generation (it holds a run), once a run
      // more has ended since the last stop; the first stop is a drain, the others are kills.
      const slot = daemons.findIndex((d) => held.includes(String(d.child.pid)));
      const victim = daemons[slot];
      if (
        victim === undefined ||
        exits.length >= MAX_STOPS ||
        ended - endedAtLastStop < ENDED_BETWEEN_STOPS
      ) {
        await sleep(20);
        continue;
      }
      victim.child.kill(exits.length === 0 ? "SIGTERM" : "SIGKILL");
      exits.push(await victim.exited);
      endedAtLastStop = ended;
      const restarted = start();
      daemons[slot] = restarted;
      await restarted.ready;
    }
    assert.ok(exits.length >= 2, `only ${exits.length} daemon stop(s) happened before the runs ended`);
    assert.equal(exits[0], 0, "a SIGTERM drains the daemon, which exits 0");
    assert.ok(holders.size >= 2, `the work was shared: runs were held by ${holders.size} daemon(s)`);
    for (const run of runs) {
      const end = await runEnd(store, run.id, run.dir);
      assert.equal(end.outcome, reference.outcome, run.id);
      assert.equal(end.generations, reference.generations, run.id);
      assert.equal(end.verdicts, reference.verdicts, run.id);
      assert.equal(end.completions.size, ONE_GENERATION.body.length, run.id);
      for (const [codon, count] of end.completions)
        assert.equal(count, end.generations, `${run.id}: ${codon} completed once per generation`);
    }
  } finally {
    for (const daemon of daemons) daemon.child.kill("SIGKILL");
    await Promise.all(daemons.map((d) => d.exited));
    await store.close();
    bundle.remove();
    await fx.remove();
  }
});

/** The loops CLI in process, its output captured. */
async function loopsCli(argv: readonly string[], home: string) {
  const { io, out, err } = captureIo(home, { HOME: home });
  const code = await runLoopsCommand(argv, io);
  return { code, stdout: out(), stderr: err() };
}

test("--store postgres://... selects the shared store; ls shows who holds each live run; no password is printed", {
  skip: server.ok ? false : server.reason,
}, async () => {
  if (!server.ok) return;
  const home = mkdtempSync(join(tmpdir(), "loops-cli-"));
  // The test cluster trusts local connections: the password is only there to be kept out of sight.
  const url = server.url.replace("postgres@", "postgres:hush-hush@");
  const store = await openPostgresLoopStore({ url });
  try {
    const unique = `${process.pid}-${Date.now()}`;
    await admitted(store, newRun(`held-${unique}`, `held-${unique}`));
    await admitted(store, newRun(`free-${unique}`, `free-${unique}`));
    await store.acquireLease(`held-${unique}`, "box-7:4242:daemon-ab12", Date.now(), 600_000);
    const ls = await loopsCli(["--store", url, "ls"], home);
    assert.equal(ls.code, 0, ls.stderr);
    assert.match(ls.stdout, /HELD BY/);
    assert.match(ls.stdout, new RegExp(`held-${unique} .* box-7:4242:daemon-ab12`));
    const free = ls.stdout.split("\n").find((l) => l.startsWith(`free-${unique}`));
    assert.ok(free !== undefined && !free.includes("daemon-"), "a run no driver holds shows -");
    const missing = await loopsCli(["--store", url, "show", "no-such-run"], home);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/);
    assert.doesNotMatch(missing.stderr + missing.stdout + ls.stdout + ls.stderr, /hush-hush/);
    const workers = await loopsCli(["--store", url, "daemon", "--workers", "-1"], home);
    assert.equal(workers.code, 1);
    assert.match(workers.stderr, /--workers must be a whole number/);
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
});
