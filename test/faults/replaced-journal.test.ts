import assert from "node:assert/strict";
import { execSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readAll } from "../../src/journal/index.ts";
import { runExecution } from "../../src/runner/index.ts";
import { runOptions } from "../runner/support.ts";
import { codon, payloads, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: an agent that replaces the journal (`sed -i` writes an edited copy and renames it over the
 * file) must not detach it. The runtime puts its records back and warns; the next start finds a whole
 * journal. A kill in the middle of putting it back leaves the records in `events.jsonl.restoring`, and
 * the next start's refusal names that file and the command that puts it back.
 */

const SED = "@run sed -i 's/scripted/scripted/' ../.hankweave/events/events.jsonl";

describe("a journal the agent replaces", () => {
  const box = sandbox("replaced-journal");
  after(() => box.remove());

  it("is put back: nothing is lost, a warning names the kept copy, the next start has nothing to do", async () => {
    const hank = writeHank(join(box.root, "hank"), [
      codon("c1", "@append one.txt c1"),
      codon("c2", `${SED}\n@append two.txt c2`),
      codon("c3", "@append three.txt c3"),
    ]);
    const execution = join(box.root, "exec");
    const first = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(first.kind === "ran" && first.outcome, "completed", JSON.stringify(first).slice(0, 300));
    const layout = first.kind === "ran" ? first.layout : undefined;
    assert.ok(layout);

    const read = await readAll(layout.eventsPath);
    assert.deepEqual([read.skipped, read.chainBreaks], [0, []]);
    assert.equal(read.events.at(-1)?.seq, first.kind === "ran" ? first.state.lastSeq : -1);
    assert.deepEqual(
      payloads(read.events, "codon.completed").map((d) => d.codonId),
      ["c1", "c2", "c3"],
    );
    const warning = payloads(read.events, "error").find((e) => e.code === "journal-replaced");
    assert.match(
      warning?.message ?? "",
      /^The journal .*events\.jsonl was replaced while the run was writing it .*events\.jsonl\.replaced-1/,
    );
    assert.ok(existsSync(`${layout.eventsPath}.replaced-1`));

    const second = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(second.kind, "nothing-to-do", JSON.stringify(second).slice(0, 300));
  });

  it("killed while putting it back: the next start names the copy to move back", async () => {
    const hank = writeHank(join(box.root, "hank-kill"), [codon("c1", "@append one.txt c1")]);
    const execution = join(box.root, "exec-kill");
    const first = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(first.kind === "ran" && first.outcome, "completed");
    const layout = first.kind === "ran" ? first.layout : undefined;
    assert.ok(layout);
    // The disk as a kill between the copy and its rename leaves it: the records in the restore file,
    // the agent's shortened journal at the path.
    const whole = readFileSync(layout.eventsPath, "utf8");
    writeFileSync(`${layout.eventsPath}.restoring`, whole);
    writeFileSync(layout.eventsPath, `${whole.split("\n").slice(0, 3).join("\n")}\n`);

    const second = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(second.kind, "refused", JSON.stringify(second).slice(0, 300));
    const message = second.kind === "refused" ? second.message : "";
    const move = message.match(/to keep the work, run (mv \S+ \S+) and run again\./)?.[1];
    assert.equal(move, `mv ${layout.eventsPath}.restoring ${layout.eventsPath}`, message);
    execSync(move);
    const third = await runExecution(runOptions(box, hank, { execution }));
    assert.equal(third.kind, "nothing-to-do", JSON.stringify(third).slice(0, 300));
  });
});
