import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { workspaceOf } from "../../src/loops/coordinator/run-body.ts";
import { bwrapProblem } from "../../src/loops/sandbox/bwrap.ts";
import { INCREMENT, type LoopFixture, loopFixture, until } from "./loop-fixture.ts";

/**
 * `[sandbox] kind = "bwrap"`: gates, hooks and sources run in bubblewrap, where the store's and the
 * daemon's directories (the token), every run's directory and the pinned contract are empty, the
 * data is read-only, and only the gate's own workspace is writable.
 */
const problem = bwrapProblem();
if (problem !== undefined) console.log(`# skipping the bubblewrap sandbox tests: ${problem}`);

/** A gate that passes only when it can neither read the token, nor write its own pinned copy, nor the data. */
const PROBE = `#!/bin/sh
issues=""
cat "$HOME/daemon.token" >/dev/null 2>&1 && issues="$issues token-readable"
echo "exit 0" >> "$0" 2>/dev/null && issues="$issues gate-writable"
touch "$HOME/data/planted" 2>/dev/null && issues="$issues data-writable"
cat "$(dirname "$0")/demo.loop.toml" >/dev/null 2>&1 && issues="$issues contract-readable"
touch sandbox-was-here || issues="$issues workspace-read-only"
[ -z "$issues" ] && exit 0
echo "{\\"blocking_issues\\": [$(for i in $issues; do printf '{"id": "%s"},' "$i"; done | sed 's/,$//')]}"
exit 1
`;

const toml = (sandbox: string) =>
  `[contract]\ngoal = "g"\niteration_cap = 1\n[[gates]]\nid = "probe"\nkind = "command"\nrun = ["./probe.sh"]\n${sandbox}`;

async function outcome(fx: LoopFixture) {
  writeFileSync(join(fx.dir, "daemon.token"), "secret-token\n", { mode: 0o600 });
  const admitted = await fx.admit();
  if (admitted.kind !== "admitted") throw new Error(JSON.stringify(admitted));
  const end = await driveRun(admitted.run.id, fx.deps({ privateDirs: [fx.dir] }), { follow: true });
  const generations = await fx.store.generations(admitted.run.id);
  const precheck = (await fx.store.events(0, admitted.run.id)).find((e) => e.type === "run.precheck");
  const precheckGates = precheck?.data.gates ?? [];
  return {
    state: end.kind === "terminal" ? `${end.run.state}: ${end.run.cause}` : end.kind,
    precheck: precheckGates[0]?.blockerIds ?? [],
    generation: generations.at(-1)?.facts.gates[0]?.blockerIds ?? [],
  };
}

describe("the bubblewrap sandbox", { skip: problem !== undefined, concurrency: 2 }, () => {
  test("a sandboxed gate cannot read the token, write its pinned copy or the data; its workspace is writable", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: toml('[sandbox]\nkind = "bwrap"\nnetwork = false\n'),
      scripts: { "probe.sh": PROBE },
    });
    try {
      // The pre-check runs the gate on the data, read-only in the sandbox; generation 1 in its workspace.
      assert.deepEqual(await outcome(fx), {
        state: "done: gates_passed",
        precheck: ["workspace-read-only"],
        generation: [],
      });
    } finally {
      await fx.remove();
    }
  });

  test("the same gate without the sandbox reaches all of it (what the sandbox takes away)", async () => {
    const fx = await loopFixture({ body: [INCREMENT], toml: toml(""), scripts: { "probe.sh": PROBE } });
    try {
      // Writing its pinned copy in the pre-check is caught by the hash check before generation 1.
      assert.deepEqual(await outcome(fx), {
        state: "failed: contract_tampered",
        precheck: ["contract-readable", "data-writable", "gate-writable", "token-readable"],
        generation: [],
      });
    } finally {
      await fx.remove();
    }
  });

  test("a sandboxed body cannot read the token nor write the pinned gate; its workspace carries over", async () => {
    const body =
      '@run cat "$HOME/daemon.token" > token-copy.txt 2>/dev/null; echo "exit 0" >> "$PINNED_GATE" 2>/dev/null; n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count\n@say tried';
    const fx = await loopFixture({
      body: [body],
      toml: `[contract]\ngoal = "g"\niteration_cap = 2\n[[gates]]\nid = "never"\nkind = "command"\nrun = ["./never.sh"]\n[sandbox]\nkind = "bwrap"\n`,
      scripts: { "never.sh": "#!/bin/sh\nexit 1\n" },
    });
    try {
      writeFileSync(join(fx.dir, "daemon.token"), "secret-token\n", { mode: 0o600 });
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(JSON.stringify(admitted));
      const { run } = admitted;
      const gate = run.contract.gates[0];
      const deps = fx.deps({ privateDirs: [fx.dir] });
      const env = { ...deps.env, PINNED_GATE: gate?.kind === "command" ? (gate.run[0] ?? "") : "" };
      const end = await driveRun(run.id, { ...deps, env }, { follow: true });
      // Not tampered: the pinned gate kept failing, and the cap ended the run after two generations.
      assert.equal(
        end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`,
        "exhausted: iteration_cap",
      );
      const workspace = workspaceOf(run.dir);
      assert.equal(readFileSync(join(workspace, "count"), "utf8").trim(), "2");
      assert.equal(readFileSync(join(workspace, "token-copy.txt"), "utf8"), "");
    } finally {
      await fx.remove();
    }
  });

  test("a stop reaches a sandboxed body at once: the generation ends aborted, nothing is left running", async () => {
    const fx = await loopFixture({
      body: ["@run touch started; sleep 60; touch slept\n@say ok"],
      toml: `[contract]\ngoal = "g"\n[[gates]]\nid = "never"\nkind = "command"\nrun = ["./never.sh"]\n[sandbox]\nkind = "bwrap"\n`,
      scripts: { "never.sh": "#!/bin/sh\nexit 1\n" },
    });
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      const { run } = admitted;
      const driving = driveRun(run.id, fx.deps({ privateDirs: [fx.dir] }), { follow: true });
      await until(async () => existsSync(join(workspaceOf(run.dir), "started")), "the body under way");
      await fx.store.addCommand(run.id, { type: "stop", by: "ana" }, new Date().toISOString());
      const end = await driving;
      assert.equal(end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`, "failed: operator_stop");
      assert.deepEqual(
        (await fx.store.generations(run.id)).map((g) => g.state),
        ["aborted"],
      );
      assert.equal(existsSync(join(workspaceOf(run.dir), "slept")), false);
    } finally {
      await fx.remove();
    }
  });
});
