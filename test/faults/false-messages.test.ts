import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { type ExecutionResult, runExecution } from "../../src/runner/index.ts";
import { parseLockRecord } from "../../src/workspace/lock/lock-record.ts";
import { cancelHeld, holdRun, runOptions } from "../runner/support.ts";
import { codon, journal, payloads, sandbox, writeHank } from "../workspace/support.ts";

const SLEEP_MS = 60_000;

/**
 * Item: messages that say what is true. A journal overwritten with bytes that are no records is not
 * "empty"; a `state.json` replaced by a directory is named as such; the lock names the run holding it.
 */

function refusal(result: ExecutionResult): string {
  assert.equal(result.kind, "refused", JSON.stringify(result).slice(0, 300));
  return result.kind === "refused" ? result.message : "";
}

describe("messages about a damaged execution say what was found", () => {
  const box = sandbox("false-messages");
  after(() => box.remove());
  const hank = writeHank(join(box.root, "hank"), [codon("a", "@append trail.txt a")]);

  async function completed(name: string) {
    const execution = join(box.root, name);
    const first = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(first.kind === "ran" && first.outcome, "completed");
    if (first.kind !== "ran") throw new Error("unreachable");
    return { execution, layout: first.layout };
  }

  it("a journal of garbage is called unreadable, with its size, not empty", async () => {
    const { execution, layout } = await completed("garbage");
    writeFileSync(layout.eventsPath, "this is not a journal\n\u0000\u0001 neither is this\n");
    const message = refusal(await runExecution(runOptions(box, hank, { execution })));
    assert.match(
      message,
      /^The journal of this execution \(.*events\.jsonl\) holds no readable record \(\d+ bytes\), but /,
    );
    assert.doesNotMatch(message, /is empty/);
  });

  it("the lock names the run that holds it, not 'starting'", async () => {
    const sleeper = writeHank(join(box.root, "hank-sleeps"), [codon("a", `@sleep ${SLEEP_MS}`)]);
    const options = runOptions(box, sleeper, { execution: join(box.root, "lock-run-id") });
    const started = (e: JournaledEvent) => e.type === "codon.started";
    const held = await holdRun(options, started, SLEEP_MS);
    const lock = parseLockRecord(readFileSync(held.layout.lockPath, "utf8"));
    await cancelHeld(held);
    const starts = payloads(await journal(held.layout), "state.transition").filter(
      (t) => t.transitionType === "RunStarted",
    );
    assert.equal(starts.length, 1);
    assert.equal(lock?.runId, starts[0]?.runId);
  });

  it("a directory where state.json belongs is named as such, with the fix", async () => {
    const { execution, layout } = await completed("state-dir");
    rmSync(layout.statePath);
    mkdirSync(layout.statePath);
    const message = refusal(await runExecution(runOptions(box, hank, { execution })));
    assert.equal(message.split("\n").length, 1, message);
    assert.match(
      message,
      /^Cannot \w+ .*state\.json: a directory is where a file was expected \(EISDIR\)\. Move that directory/,
    );
  });
});
