import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { runLoops } from "./loops-cli.ts";

const EXAMPLES = resolve(import.meta.dirname, "..", "..", "examples", "loops");
const dir = mkdtempSync(join(tmpdir(), "loop-examples-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `hankweave loops <argv>` in-process with its own store. */
function loops(argv: string[], db: string) {
  return runLoops(["--db", db, ...argv], {
    cwd: EXAMPLES,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      HANKWEAVE_EXECUTIONS_DIR: join(dir, "executions"),
      USER: "tester",
    },
  });
}

describe("the example loops end as documented", { concurrency: 2 }, () => {
  for (const [example, code, outcome] of [
    ["done", 0, "done (gates_passed)"],
    ["exhausted", 5, "exhausted (iteration_cap)"],
    ["stalled", 6, "stalled (blocker_signature)"],
  ] as const) {
    test(`${example}.loop.toml: exit ${code}, ${outcome}`, async () => {
      const result = await loops(["run", `${example}.loop.toml`], join(dir, `${example}.db`));
      assert.equal(result.code, code, result.stderr);
      assert.match(result.stderr, new RegExp(outcome.replace(/[()]/g, "\\$&")));
    });
  }

  test("needs-approval.loop.toml parks (exit 2); approve --add re-arms it to done; show prints the meters", async () => {
    const db = join(dir, "approval.db");
    const parked = await loops(["run", "--exit-on-park", "needs-approval.loop.toml"], db);
    assert.equal(parked.code, 2, parked.stderr);
    const runId = parked.stdout.trim();
    const shown = await loops(["show", runId], db);
    assert.match(shown.stdout, /needs-approval \(budget_escalated\)/);
    assert.match(shown.stdout, /tokens {8}1400 \/ 1000/);
    assert.match(shown.stdout, /cost .*a meter, never a cap/);
    const bare = await loops(["approve", runId], db);
    assert.equal(bare.code, 1, "refused at once, not left waiting");
    assert.match(bare.stderr, /approve refused, nothing recorded: a budget approval must add an amount/);
    const approved = await loops(["approve", runId, "--add", "2000"], db);
    assert.equal(approved.code, 0, approved.stderr);
    const waited = await loops(["show", "--wait", runId], db);
    assert.equal(waited.code, 0);
    const listed = await loops(["ls"], db);
    assert.match(listed.stdout, /count-on-a-budget: 100% done \(1 of 1\)/);
  });

  test("watch.loop.toml: a tick with two new issues ends done; the next tick's run waits watching", async () => {
    const db = join(dir, "watch.db");
    const first = await loops(["run", "watch.loop.toml"], db);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /done \(gates_passed\)/);
    assert.match(first.stderr, /tick with 2 item\(s\)/);
    const listed = await loops(["ls"], db);
    assert.match(listed.stdout, /watching/, "the next tick's run waits for the daemon's next poll");
  });

  test("lint shows the seven admission conditions; a bad definition names its path and fix", async () => {
    const lint = await loops(["lint", "done.loop.toml"], join(dir, "lint.db"));
    assert.equal(lint.code, 0, lint.stderr);
    for (const condition of [
      "recurrence",
      "verifiability",
      "actability",
      "recoverability",
      "economics",
      "governability",
      "sedimentability",
    ]) {
      assert.match(lint.stdout, new RegExp(`ok +${condition}`));
    }
    const missing = await loops(["lint", "nope.loop.toml"], join(dir, "lint.db"));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Cannot read .*nope\.loop\.toml/);
  });
});
