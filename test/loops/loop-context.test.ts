import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { workspaceOf } from "../../src/loops/coordinator/run-body.ts";
import { generationKey } from "../../src/loops/model/idempotency.ts";
import { loopFixture } from "./loop-fixture.ts";

/**
 * The body's prompts read the loop's context as template variables (the same values as the
 * `HANKWEAVE_LOOP_*` environment): the generation, its idempotency key, the inbox handed to it, and
 * what the gates said of the generation before.
 */
const GATE = `#!/bin/sh\necho '{"blocking_issues": [{"id": "T-2"}, {"id": "T-1"}]}'\nexit 1\n`;

describe("loop context in the body's prompts", () => {
  test("generation, key, inbox, last verdicts and blocker ids are substituted in the prompt", async () => {
    // `@append` writes the text as it is (no shell), so the gate's JSON summary arrives intact.
    const prompt =
      "@append seen.txt gen=<%LOOP_GENERATION%> key=<%LOOP_KEY%> blockers=<%LOOP_BLOCKERS%> verdicts=<%LOOP_VERDICTS%> inbox=<%LOOP_INBOX%>\n@say seen";
    const fx = await loopFixture({
      body: [prompt],
      toml: `[contract]\ngoal = "g"\niteration_cap = 2\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`,
      scripts: { "check.sh": GATE },
    });
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      const { run } = admitted;
      await fx.store.addMessage({
        runId: run.id,
        kind: "operator_note",
        author: "ana",
        text: "mind the flaky test",
        createdAt: new Date().toISOString(),
      });
      const end = await driveRun(run.id, fx.deps(), { follow: true });
      assert.equal(end.kind === "terminal" && end.run.state, "exhausted");
      const lines = readFileSync(join(workspaceOf(run.dir), "seen.txt"), "utf8")
        .trimEnd()
        .split("\n");
      const first = `gen=1 key=${generationKey(run.key, 1)} blockers= verdicts= inbox=`;
      assert.ok(lines[0]?.startsWith(first), lines[0]);
      assert.match(lines[0] ?? "", /inbox=\[operator_note #1 from ana\] mind the flaky test$/);
      const second = `gen=2 key=${generationKey(run.key, 2)} blockers=T-1, T-2 verdicts=check: revise`;
      assert.ok(lines[1]?.startsWith(second), lines[1]);
      assert.doesNotMatch(lines.join("\n"), /<%LOOP_/);
    } finally {
      await fx.remove();
    }
  });
});
