import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { runExecution } from "../../src/runner/index.ts";
import type { ExecutionLayout } from "../../src/workspace/execution-layout.ts";
import { agentFile, cancelHeld, holdRun, runOptions, runSkippingSleeps } from "../runner/support.ts";
import { codon, journal, payloads, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: a finished codon whose `completed` checkpoint could not be made keeps its files. c2 plants a
 * lock in the checkpoint store (as an agent can; a full disk leaves the commit undone the same way),
 * so its end is never checkpointed; c3 then fails, or is stopped by a cancel. The restart must not
 * walk back over c2's files to c1's checkpoint (c2 is finished and will not run again), and it says so.
 */

const ALL = { checkpointedFiles: ["**"] };
const PLANT_LOCK = "@run touch ../.hankweave/checkpoints/.hankweavecheckpoints/index.lock";
const SLEEP_MS = 60_000;

function hankWith(box: { root: string }, name: string, c3Script: string): string {
  return writeHank(join(box.root, name), [
    codon("c1", "@append one.txt c1", ALL),
    codon("c2", `${PLANT_LOCK}\n@append two.txt c2`, ALL),
    codon("c3", `${c3Script}\n@append three.txt c3`, ALL),
  ]);
}

async function assertC2Kept(layout: ExecutionLayout): Promise<void> {
  assert.equal(readFileSync(agentFile(layout, "one.txt"), "utf8"), "c1\n");
  assert.equal(readFileSync(agentFile(layout, "two.txt"), "utf8"), "c2\n");
  assert.equal(readFileSync(agentFile(layout, "three.txt"), "utf8"), "c3\n");
  const events = await journal(layout);
  const notMade = payloads(events, "error").filter((e) => e.code === "checkpoint-not-made");
  assert.deepEqual(
    notMade.map((e) => e.codon),
    ["c2"],
    "the unmade checkpoint is recorded with its codon",
  );
  const warnings = payloads(events, "error").filter((e) => e.severity === "warning");
  assert.ok(
    warnings.some((w) =>
      w.message.includes("codon c2 finished but its end was never checkpointed, so its files are kept"),
    ),
    JSON.stringify(warnings),
  );
  const c2Runs = payloads(events, "codon.started").filter((d) => d.codonId === "c2");
  assert.equal(c2Runs.length, 1, "c2 is not run again");
}

describe("a finished codon whose completed checkpoint failed", () => {
  const box = sandbox("unmade-checkpoint");
  after(() => box.remove());

  it("keeps its files on the restart after a later codon failed", async () => {
    const hank = hankWith(box, "hank-fail", "@fail attempts=1 boom");
    const execution = join(box.root, "exec-fail");
    const first = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(first.kind === "ran" && first.outcome, "failed", JSON.stringify(first).slice(0, 400));
    const second = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(second.kind === "ran" && second.outcome, "completed");
    if (second.kind === "ran") await assertC2Kept(second.layout);
  });

  it("keeps its files on the restart after a cancel stopped the next codon", async () => {
    const hank = hankWith(box, "hank-cancel", `@sleep ${SLEEP_MS}`);
    const execution = join(box.root, "exec-cancel");
    const c3Sleeps = (e: JournaledEvent) => e.type === "codon.started" && e.data.codonId === "c3";
    const held = await holdRun(runOptions(box, hank, { execution }), c3Sleeps, SLEEP_MS);
    const stopped = await cancelHeld(held);
    assert.equal(stopped.kind === "ran" && stopped.outcome, "aborted", JSON.stringify(stopped).slice(0, 400));
    const second = await runSkippingSleeps(runOptions(box, hank, { execution }), SLEEP_MS);
    assert.equal(second.kind === "ran" && second.outcome, "completed");
    await assertC2Kept(held.layout);
  });
});
