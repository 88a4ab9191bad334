import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type ExecutionResult, runExecution } from "../../src/runner/index.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";
import { copyTree, runOptions } from "./support.ts";

/**
 * Item: a missing or emptied journal is not a fresh start. An execution ran; its journal is then lost
 * in different ways. The next start must refuse, say what it found and how to go on, and run nothing
 * (the workspace is left as it was), instead of starting the hank over on the old workspace.
 */

function refusal(result: ExecutionResult): string {
  assert.equal(result.kind, "refused", JSON.stringify(result).slice(0, 400));
  return result.kind === "refused" ? result.message : "";
}

describe("a lost journal is not a fresh start", () => {
  const box = sandbox("lost-journal");
  const ran = join(box.root, "ran");
  let hank = "";
  before(async () => {
    hank = writeHank(join(box.root, "hank"), [
      codon("a", "@append trail.txt a", { checkpointedFiles: ["**"] }),
      codon("b", "@append trail.txt b", { checkpointedFiles: ["**"] }),
    ]);
    const first = await runExecution(runOptions(box, hank, { execution: ran }));
    assert.equal(first.kind === "ran" && first.outcome, "completed");
  });
  after(() => box.remove());

  const cases: ReadonlyArray<{ name: string; lose: (dir: string) => void; says: RegExp }> = [
    {
      name: "journal deleted, snapshot kept",
      lose: (dir) => rmSync(executionLayout(dir).eventsPath),
      says: /is missing, but state\.json records \d+ event\(s\), the checkpoint store holds \d+ checkpoint\(s\), the workspace holds 1 entry/,
    },
    {
      name: "journal emptied",
      lose: (dir) => writeFileSync(executionLayout(dir).eventsPath, ""),
      says: /is empty, but state\.json records/,
    },
    {
      name: "journal and snapshot deleted: the checkpoints and the workspace remain",
      lose: (dir) => {
        const layout = executionLayout(dir);
        for (const path of [layout.eventsPath, layout.statePath, layout.stateBackupPath])
          rmSync(path, { force: true });
      },
      says: /is missing, but the checkpoint store holds \d+ checkpoint\(s\), the workspace holds 1 entry/,
    },
    {
      name: "journal cut short behind the snapshot",
      lose: (dir) => {
        const path = executionLayout(dir).eventsPath;
        const lines = readFileSync(path, "utf8").split("\n");
        writeFileSync(path, `${lines.slice(0, 3).join("\n")}\n`);
      },
      says: /ends at event 3, but state\.json records \d+ event\(s\)/,
    },
  ];

  for (const [index, { name, lose, says }] of cases.entries()) {
    it(`refuses and runs nothing: ${name}`, async () => {
      const dir = copyTree(ran, join(box.root, `case-${index}`));
      lose(dir);
      const message = refusal(await runExecution(runOptions(box, hank, { execution: dir })));
      assert.match(message, says);
      assert.match(message, /nothing was run/);
      assert.ok(message.includes(`--start-new --force -e ${dir}`), message);
      assert.equal(readFileSync(join(executionLayout(dir).agentRoot, "trail.txt"), "utf8"), "a\nb\n");
    });
  }

  it("an intact execution still resumes (nothing to do), and --start-new --force starts over", async () => {
    const intact = await runExecution(runOptions(box, hank, { execution: ran }));
    assert.equal(intact.kind, "nothing-to-do");
    const dir = copyTree(ran, join(box.root, "start-over"));
    rmSync(executionLayout(dir).eventsPath);
    const over = await runExecution(runOptions(box, hank, { execution: dir, startNew: true, force: true }));
    assert.equal(over.kind === "ran" && over.outcome, "completed", JSON.stringify(over).slice(0, 400));
    assert.equal(readFileSync(join(executionLayout(dir).agentRoot, "trail.txt"), "utf8"), "a\nb\n");
  });
});
