import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runExecution } from "../../src/runner/index.ts";
import { agentFile, runOptions } from "../runner/support.ts";
import { codon, journal, payloads, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: an agent that deletes the checkpoint store must not leave every later start failing. b deletes
 * the store on its first attempt, then fails. The next start would put the workspace back to a's
 * checkpoint, which no store holds any more: it refuses, saying so and how to go on; with `-y` the
 * execution goes on from a fresh store, on the files as they are, and completes.
 */

const DELETE_STORE_ONCE =
  "@run [ -e ../store-deleted ] || { touch ../store-deleted; rm -rf ../.hankweave/checkpoints/.hankweavecheckpoints; }";
const ALL = { checkpointedFiles: ["**"] };

describe("a checkpoint store the agent deleted", () => {
  const box = sandbox("deleted-store");
  after(() => box.remove());

  it("refuses the restart with the way out, then goes on from a fresh store with -y", async () => {
    const hank = writeHank(join(box.root, "hank"), [
      codon("a", "@append trail.txt a", ALL),
      codon("b", `${DELETE_STORE_ONCE}\n@fail attempts=1 boom\n@append trail.txt b`, ALL),
    ]);
    const options = runOptions(box, hank, { execution: join(box.root, "exec") });
    const first = await runExecution(options);
    assert.equal(first.kind === "ran" && first.outcome, "failed");

    const refused = await runExecution(options);
    assert.equal(
      refused.kind,
      "refused",
      refused.kind === "ran" ? `${refused.outcome}: ${refused.message}` : "",
    );
    const message = refused.kind === "refused" ? refused.message : "";
    assert.equal(message.split("\n").length, 1);
    assert.match(
      message,
      /^The checkpoint store .*\.hankweavecheckpoints no longer holds the checkpoints the journal restarts from \(it was deleted or replaced; code checkpoints-lost\)\. Nothing was run\. To go on from a fresh store, on the files as they are: hankweave --execution \S+ -y$/,
    );

    const accepted = await runExecution({ ...options, yes: true });
    assert.equal(
      accepted.kind === "ran" && accepted.outcome,
      "completed",
      JSON.stringify(accepted).slice(0, 400),
    );
    if (accepted.kind !== "ran") return;
    assert.equal(readFileSync(agentFile(accepted.layout, "trail.txt"), "utf8"), "a\nb\n");
    const lost = payloads(await journal(accepted.layout), "error").filter(
      (e) => e.code === "checkpoints-lost",
    );
    assert.equal(lost.length, 1, "the way on is journaled as a warning");
  });
});
