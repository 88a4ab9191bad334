import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { workspaceOf } from "../../src/loops/coordinator/run-body.ts";
import { countGate, INCREMENT, type LoopFixture, loopFixture } from "./loop-fixture.ts";

const GATE = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;
const watchToml = (extra = "") =>
  `kind = "watch"\n[watch]\nsource = ["./source.sh"]\nevery_sec = 1\n${extra}\n[contract]\ngoal = "handle new items"\n${GATE}`;

/** A source that hands out two items on its first poll (no cursor yet), then nothing new. */
const SOURCE = `#!/bin/sh
if [ -z "$HANKWEAVE_WATCH_CURSOR" ]; then
  echo '{"items": [{"id": "issue-1"}, {"id": "issue-2"}], "cursor": "c2"}'
else
  echo "{\\"items\\": [], \\"cursor\\": \\"$HANKWEAVE_WATCH_CURSOR\\"}"
fi
`;

async function drive(fx: LoopFixture, runId: string) {
  const end = await driveRun(runId, fx.deps(), { follow: true });
  if (end.kind !== "terminal") throw new Error(`not terminal: ${end.kind}`);
  return end.run;
}

describe("watch loops: one run per tick", { concurrency: 2 }, () => {
  test("a tick with items runs them; the next tick's run waits watching; a clean tick is no-op", async () => {
    const body = `${INCREMENT}\n@run printf '%s' "$HANKWEAVE_LOOP_ITEMS" > items.json`;
    const fx = await loopFixture({
      body: [body],
      toml: watchToml(),
      scripts: { "source.sh": SOURCE, "check.sh": countGate(1) },
    });
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      assert.equal(admitted.run.state, "watching");
      assert.equal(admitted.run.contract.limits.iteration_cap, 0, "a watch loop's cap defaults to unbounded");
      const first = await drive(fx, admitted.run.id);
      assert.equal(`${first.state}: ${first.cause}`, "done: gates_passed");
      const items = JSON.parse(readFileSync(join(workspaceOf(first.dir), "items.json"), "utf8"));
      assert.deepEqual(
        items.map((item: { id: string }) => item.id),
        ["issue-1", "issue-2"],
      );
      assert.equal((await fx.store.getCursor("demo"))?.cursor, "c2");
      const [next] = await fx.store.listRuns({ live: true });
      assert.equal(next?.state, "watching");
      assert.equal(next?.trigger, "watch");
      const second = await drive(fx, next?.id ?? "");
      assert.equal(`${second.state}: ${second.cause}`, "no-op: clean_tick");
      assert.equal((await fx.store.generations(second.id)).length, 0);
      const states = (await fx.store.events(0, second.id))
        .filter((e) => e.type === "run.state")
        .map((e) => e.data.to);
      assert.deepEqual(states, ["running", "no-op"]);
      assert.equal((await fx.store.listRuns({ live: true }))[0]?.state, "watching", "and the next one waits");
    } finally {
      await fx.remove();
    }
  });

  test("a source that never answers for the silence window: stalled source_silent, no next tick", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: watchToml("silence_window_sec = 1"),
      scripts: { "source.sh": "#!/bin/sh\necho down >&2\nexit 1\n", "check.sh": countGate(1) },
    });
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      const run = await drive(fx, admitted.run.id);
      assert.equal(`${run.state}: ${run.cause}`, "stalled: source_silent");
      const failed = (await fx.store.events(0, run.id)).filter((e) => e.type === "watch.poll_failed");
      assert.match(String(failed[0]?.data.message), /exit 1: down/);
      assert.equal((await fx.store.listRuns({ live: true })).length, 0);
      assert.equal(run.meters.runningMs, 0, "watching time never counts as running time");
      assert.match(readFileSync(join(fx.dir, "notified.log"), "utf8"), /"why":"source_silent"/);
    } finally {
      await fx.remove();
    }
  });
});
