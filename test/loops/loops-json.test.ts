import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { runLoops } from "./loops-cli.ts";

const EXAMPLES = resolve(import.meta.dirname, "..", "..", "examples", "loops");
const dir = mkdtempSync(join(tmpdir(), "loops-json-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, "loops.db");

/** `hankweave loops --json <argv>`, the stdout parsed as the one JSON value it must be. */
async function json(argv: string[]): Promise<{ code: number; value: Record<string, unknown> }> {
  const env = { PATH: process.env.PATH, HOME: dir, HANKWEAVE_EXECUTIONS_DIR: join(dir, "executions") };
  const result = await runLoops(["--db", db, ...argv, "--json"], { cwd: EXAMPLES, env });
  return { code: result.code, value: JSON.parse(result.stdout) as Record<string, unknown> };
}

describe("loops verbs with --json: one object on stdout each", () => {
  test("lint, run, show --wait, logs, ls, start, stop, gc, schema", async () => {
    const lint = await json(["lint", "done.loop.toml"]);
    assert.equal(lint.code, 0);
    assert.equal(lint.value.ok, true);
    assert.deepEqual(lint.value.issues, []);
    const rows = (lint.value.admission as { rows: { condition: string; met: boolean }[] }).rows;
    assert.equal(rows.length, 7);
    assert.ok(rows.every((row) => row.met));

    const ran = await json(["run", "done.loop.toml"]);
    assert.equal(ran.code, 0);
    assert.equal(ran.value.state, "done");
    assert.equal(ran.value.cause, "gates_passed");
    assert.equal(ran.value.exitCode, 0);
    const runId = String(ran.value.run);

    const waited = await json(["show", runId, "--wait"]);
    assert.equal(waited.code, 0);
    assert.equal((waited.value.run as { state: string }).state, "done");
    assert.ok(Array.isArray(waited.value.generations));

    const logs = await json(["logs", runId]);
    assert.equal(logs.value.run, runId);
    assert.ok((logs.value.events as { type: string }[]).some((event) => event.type === "run.admitted"));

    const listed = await json(["ls"]);
    assert.ok(Array.isArray(listed.value));

    const started = await json(["start", "exhausted.loop.toml"]);
    assert.equal(started.code, 0);
    assert.equal(started.value.duplicate, false);
    const stopped = await json(["stop", String(started.value.run), "--no-drive"]);
    assert.deepEqual(Object.keys(stopped.value), ["run", "command", "commandId"]);
    assert.equal(stopped.value.command, "stop");

    const gc = await json(["gc", "--older-than", "1"]);
    assert.equal(gc.value.removed, 0);
    const schema = await json(["schema"]);
    assert.equal(typeof schema.value.properties, "object");
  });

  test("logs shows an entry this version does not know by its stored kind", async () => {
    const ran = await json(["run", "done.loop.toml"]);
    const runId = String(ran.value.run);
    // A newer daemon sharing the store wrote a kind this version has no schema for.
    const { default: Database } = await import("libsql");
    const raw = new Database(db);
    raw
      .prepare("INSERT INTO loop_events (run_id, type, data, at) VALUES (?, ?, ?, ?)")
      .run(runId, "run.teleported", '{"to":"mars"}', new Date().toISOString());
    raw.close();
    const env = { PATH: process.env.PATH, HOME: dir, HANKWEAVE_EXECUTIONS_DIR: join(dir, "executions") };
    const text = await runLoops(["--db", db, "logs", runId], { cwd: EXAMPLES, env });
    assert.equal(text.code, 0);
    assert.match(text.stdout, /run\.teleported \(not known to this version\) {2}\{"to":"mars"\}/);
    assert.match(text.stdout, /run\.admitted/);
  });
});
