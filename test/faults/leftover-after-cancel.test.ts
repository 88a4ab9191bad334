import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { agentFile, cancelHeld, holdRun, runOptions, runSkippingSleeps } from "../runner/support.ts";
import { codon, journal, payloads, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: a process an agent started in a session of its own (`setsid`) is out of reach of the cancel,
 * which signals the agent's process group. It still carries the execution's mark, so the next start
 * ends it, as it ends a crashed run's leftovers, before it runs anything: it never writes again.
 */

const SLEEP_MS = 60_000;
const ORPHAN_WRITES_AFTER_S = 2;
/** The first attempt leaves a process in a session of its own; `started` is not checkpointed, so it stays. */
const SCRIPT = [
  `@run [ -e started ] || { touch started; setsid sh -c 'sleep ${ORPHAN_WRITES_AFTER_S}; echo late >> late.txt' >/dev/null 2>&1 & }`,
  `@sleep ${SLEEP_MS}`,
  "@append trail.txt done",
].join("\n");

describe("a process an agent left in a session of its own", () => {
  const box = sandbox("leftover-after-cancel");
  after(() => box.remove());

  it("is ended by the next start after a cancel, and never writes into the workspace", async () => {
    const hank = writeHank(join(box.root, "hank"), [codon("a", SCRIPT)]);
    const options = runOptions(box, hank, { execution: join(box.root, "exec") });
    const sleeping = (e: JournaledEvent) => e.type === "tool.result" && e.data.codonId === "a";
    const held = await holdRun(options, sleeping, SLEEP_MS);
    const stopped = await cancelHeld(held);
    assert.equal(stopped.kind === "ran" && stopped.outcome, "aborted");

    const again = await runSkippingSleeps(options, SLEEP_MS);
    assert.equal(again.kind === "ran" && again.outcome, "completed", JSON.stringify(again).slice(0, 300));
    await sleep(ORPHAN_WRITES_AFTER_S * 1000 + 500);
    assert.equal(
      existsSync(agentFile(held.layout, "late.txt")),
      false,
      "the leftover wrote into the workspace",
    );
    const infos = payloads(await journal(held.layout), "info").map((d) => d.message);
    assert.ok(
      infos.some((m) => /^Ended \d+ process\(es\) an earlier run left running.*sleep 2/.test(m)),
      JSON.stringify(infos),
    );
  });
});
