import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runExecution } from "../../src/runner/index.ts";
import { runOptions } from "../runner/support.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: a lock file deleted or rewritten under a running process is not a takeover after a suspension.
 * The agent removes `runtime.lock` (or writes another generation into it, naming this very process);
 * once the fence looks again (a second later) the run stops, and the message must say what happened
 * to the file, not that another process took the execution over while this one was suspended.
 */

const WAIT_PAST_FENCE = "@run sleep 1.1";

async function refusalOf(box: ReturnType<typeof sandbox>, name: string, tamper: string): Promise<string> {
  const hank = writeHank(join(box.root, name), [
    codon("a", `${tamper}\n${WAIT_PAST_FENCE}\n@append trail.txt a`),
  ]);
  const result = await runExecution(runOptions(box, hank, { execution: join(box.root, `exec-${name}`) }));
  assert.equal(result.kind, "refused", JSON.stringify(result).slice(0, 300));
  return result.kind === "refused" ? result.message : "";
}

describe("a lock file tampered with while the run holds it", () => {
  const box = sandbox("lock-tampered");
  after(() => box.remove());

  it("deleted: the run stops, saying the file was removed, not that it was suspended", async () => {
    const message = await refusalOf(box, "deleted", "@run rm ../.hankweave/runtime.lock");
    assert.match(
      message,
      /^This process lost the execution's lock: its lock file .*runtime\.lock was removed while the run held it/,
    );
    assert.doesNotMatch(message, /suspended|another process/);
  });

  it("rewritten with this process's PID: the run stops, saying the file was rewritten", async () => {
    const rewrite = `@run sed -i 's/"generation":[0-9]*/"generation":99/' ../.hankweave/runtime.lock`;
    const message = await refusalOf(box, "rewritten", rewrite);
    assert.match(
      message,
      /^This process lost the execution's lock: its lock file .*runtime\.lock was rewritten while the run held it \(it names this process with generation 99; this run holds generation 1\)/,
    );
    assert.doesNotMatch(message, /suspended|another process/);
  });
});
