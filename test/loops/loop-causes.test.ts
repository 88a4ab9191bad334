import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { INCREMENT, type LoopSpec, loopFixture } from "./loop-fixture.ts";

const GATE = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;

/** Admits and drives the loop to its end; returns "state: cause" and the fixture's generations. */
async function outcomeOf(spec: LoopSpec) {
  const fx = await loopFixture(spec);
  try {
    const admitted = await fx.admit();
    if (admitted.kind !== "admitted") throw new Error(`not admitted: ${admitted.kind}`);
    const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
    if (end.kind !== "terminal") throw new Error(`not terminal: ${end.kind}`);
    const generations = await fx.store.generations(admitted.run.id);
    return { outcome: `${end.run.state}: ${end.run.cause}`, generations, run: end.run };
  } finally {
    await fx.remove();
  }
}

const toml = (extra = "") => `[contract]\ngoal = "g"\n${extra}\n${GATE}`;

describe("terminal causes through real runs", { concurrency: 2 }, () => {
  test("the same blocker ids for window generations: stalled blocker_signature", async () => {
    const gate = `#!/bin/sh\necho "{\\"blocking_issues\\": [{\\"id\\": \\"T-1\\"}, {\\"id\\": \\"T-2\\"}]}"\nexit 1\n`;
    const { outcome, generations } = await outcomeOf({
      body: [INCREMENT],
      toml: toml("[contract.no_progress]\nwindow = 2"),
      scripts: { "check.sh": gate },
    });
    assert.equal(outcome, "stalled: blocker_signature");
    assert.deepEqual(generations.at(-1)?.facts.gates[0]?.blockerIds, ["T-1", "T-2"]);
  });

  test("a body that only fails transiently trips the failure breaker", async () => {
    const { outcome, generations } = await outcomeOf({
      body: ["@fail API Error: 503 Service Unavailable"],
      toml: toml("[contract.no_progress]\nfailure_breaker = 2"),
      scripts: { "check.sh": "#!/bin/sh\nexit 1\n" },
    });
    assert.equal(outcome, "stalled: failure_breaker");
    assert.deepEqual(
      generations.map((g) => [g.state, g.facts.gates.length]),
      [
        ["error", 0],
        ["error", 0],
      ],
    );
    assert.equal(generations[0]?.layers[0]?.stream, "error");
  });

  test("a body that fails for good: failed body_failed", async () => {
    const { outcome } = await outcomeOf({
      body: ["@wirte a.txt x"],
      toml: toml(),
      scripts: { "check.sh": "#!/bin/sh\nexit 1\n" },
    });
    assert.equal(outcome, "failed: body_failed");
  });

  test("a gate exiting 3 with a cause: blocked", async () => {
    const gate = `#!/bin/sh\necho '{"cause": "missing_credential"}'\nexit 3\n`;
    const { outcome } = await outcomeOf({ body: [INCREMENT], toml: toml(), scripts: { "check.sh": gate } });
    assert.equal(outcome, "blocked: missing_credential");
  });

  test("a gate whose service does not answer: blocked unreachable", async () => {
    // A port that was just free on loopback: nothing listens there, so the gate's probe is refused.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
      });
    });
    const gate = `#!/bin/bash\nif ! (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; then\n  echo '{"cause": "unreachable", "blocking_issues": [{"id": "api-down"}]}'\n  exit 3\nfi\n`;
    const { outcome, generations } = await outcomeOf({
      body: [INCREMENT],
      toml: toml(),
      scripts: { "check.sh": gate },
    });
    assert.equal(outcome, "blocked: unreachable");
    assert.deepEqual(generations.at(-1)?.facts.gates[0]?.blockerIds, ["api-down"]);
  });

  test("a gate that cannot run: failed gate_error", async () => {
    const { outcome } = await outcomeOf({
      body: [INCREMENT],
      toml: toml(),
      scripts: { "check.sh": "#!/nonexistent/interpreter\n" },
    });
    assert.equal(outcome, "failed: gate_error");
  });

  test("max_revisions: exhausted gate_max_revisions", async () => {
    const spec = {
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n${GATE}max_revisions = 2\n`,
      scripts: { "check.sh": "#!/bin/sh\nexit 1\n" },
    };
    const { outcome, generations } = await outcomeOf(spec);
    assert.equal(outcome, "exhausted: gate_max_revisions");
    assert.equal(generations.length, 2);
  });

  test("hooks: generation_pre denial fails the run; gate_pre denial blocks it; a crash is a hook error", async () => {
    const deny = "#!/bin/sh\necho no\nexit 1\n";
    const crash = "#!/bin/sh\nexit 200\n";
    const pass = "#!/bin/sh\nexit 1\n";
    const gen = await outcomeOf({
      body: [INCREMENT],
      toml: `[hooks]\ngeneration_pre = ["./hook.sh"]\n${toml()}`,
      scripts: { "check.sh": pass, "hook.sh": deny },
    });
    assert.equal(gen.outcome, "failed: hook_denied");
    assert.equal(gen.generations.length, 0, "a denied generation is never numbered");
    const gate = await outcomeOf({
      body: [INCREMENT],
      toml: `[hooks]\ngate_pre = ["./hook.sh"]\n${toml()}`,
      scripts: { "check.sh": pass, "hook.sh": deny },
    });
    assert.equal(gate.outcome, "blocked: hook_denied");
    const error = await outcomeOf({
      body: [INCREMENT],
      toml: `[hooks]\ngenerationpre_ = ["./hook.sh"]\n${toml()}`.replace("generationpre_", "generation_pre"),
      scripts: { "check.sh": pass, "hook.sh": crash },
    });
    assert.equal(error.outcome, "failed: hook_error");
  });

  test("a token budget with halt: exhausted budget_tokens, the meter counts bodies", async () => {
    const { outcome, run } = await outcomeOf({
      body: [`${INCREMENT}\n@usage input=600 output=100`],
      toml: toml("[contract.budget]\ntokens = 1000"),
      scripts: { "check.sh": "#!/bin/sh\nexit 1\n" },
    });
    assert.equal(outcome, "exhausted: budget_tokens");
    assert.equal(run.meters.tokens, 1400);
  });
});

describe("judge gates", { concurrency: 2 }, () => {
  const judge = (instructions: string) => ({
    body: [INCREMENT],
    toml: `[contract]\ngoal = "g"\niteration_cap = 2\n[[gates]]\nid = "review"\nkind = "judge"\nmodel = "scripted"\ninstructions = "./review.md"\n`,
    scripts: { "review.md": instructions },
  });

  test("a judge through the scripted harness passes the run; its usage counts toward the meter", async () => {
    const { outcome, run, generations } = await outcomeOf(
      judge('@usage input=50 output=10\n@say {"verdict": "pass", "blocking_issues": []}'),
    );
    assert.equal(outcome, "done: gates_passed");
    assert.equal(generations[0]?.facts.gates[0]?.tokens, 60);
    assert.ok(run.meters.tokens > 60);
  });

  test("a malformed judge answer asks for a revision, never a pass", async () => {
    const { outcome, generations } = await outcomeOf(judge("@say looks fine to me"));
    assert.equal(outcome, "exhausted: iteration_cap");
    assert.deepEqual(
      generations.map((g) => g.facts.gates[0]?.verdict),
      ["revise", "revise"],
    );
  });
});
