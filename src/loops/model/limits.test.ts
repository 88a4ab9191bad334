import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { parseDefinition } from "../definition/load-definition.ts";
import { admissionReport } from "./admission.ts";
import { pinContract } from "./contract.ts";
import { generationHash } from "./generation-hash.ts";
import { messagesForNextGeneration, renderInbox, unreadOperatorMessages } from "./inbox.ts";
import { clamp, definitionLimits, resolveLimits, showCap } from "./limits.ts";

const dir = mkdtempSync(join(tmpdir(), "loop-limits-"));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "hank"));
writeFileSync(join(dir, "hank", "hank.json"), "{}");
writeFileSync(join(dir, "gate.sh"), "exit 0\n");

function load(extra: string) {
  const text = `id = "l"\nname = "l"\nhank = "./hank"\n${extra}`;
  const loaded = parseDefinition(text, join(dir, "l.loop.toml"));
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.issues));
  return loaded.definition;
}

describe("limits, defaults and ceilings", () => {
  test("per-kind defaults follow the table", () => {
    const delivery = resolveLimits("delivery", {}).values;
    assert.equal(delivery.iteration_cap, 50);
    assert.equal(delivery.window, 3);
    assert.equal(delivery.fan_out_width, 4);
    const watch = resolveLimits("watch", {}).values;
    assert.equal(watch.iteration_cap, 0);
    assert.equal(showCap(watch.iteration_cap), "∞");
    assert.equal(watch.window, 2);
    assert.equal(watch.fan_out_width, 2);
  });

  test("override > definition > configured default > built-in, then clamped with a warning", () => {
    const d = load('[contract]\ngoal = "g"\niteration_cap = 20\n[contract.no_progress]\nwindow = 50\n');
    const resolved = resolveLimits(
      "delivery",
      definitionLimits(d),
      {
        defaults: { delivery: { iteration_cap: 7, failure_breaker: 5 } },
        ceilings: { iteration_cap: 15 },
      },
      { failure_breaker: 99 },
    );
    assert.equal(resolved.values.iteration_cap, 15);
    assert.equal(resolved.values.window, 30);
    assert.equal(resolved.values.failure_breaker, 10);
    assert.deepEqual(resolved.warnings.map((w) => w.key).sort(), [
      "failure_breaker",
      "iteration_cap",
      "window",
    ]);
  });

  test("0 (unbounded) is the loosest value: a ceiling clamps it", () => {
    assert.equal(clamp(0, 100), 100);
    assert.equal(clamp(0, undefined), 0);
    assert.equal(clamp(5, 100), 5);
  });
});

describe("contract, hash, inbox, admission", () => {
  test("the contract pins limits, gates with their revisions and the pinned paths", () => {
    const d = load(
      'owner = "o"\n[contract]\ngoal = "g"\n[[gates]]\nid = "t"\nkind = "command"\nrun = ["./gate.sh"]\nmax_revisions = 99\n',
    );
    const contract = pinContract({
      definition: d,
      limits: resolveLimits("delivery", definitionLimits(d)),
      pinnedPath: (p) => p.replace(dir, "/pinned"),
      pins: [{ label: "gate.sh", path: "/pinned/gate.sh", kind: "file", sha256: "abc" }],
      pinnedDir: "/pinned",
      notices: [],
      sandbox: null,
    });
    assert.equal(contract.gates[0]?.maxRevisions, 64);
    assert.deepEqual(contract.clamped, [
      "gate t: max_revisions = 99 is above the daemon ceiling; clamped to 64.",
    ]);
    assert.deepEqual(contract.hashes, { "gate.sh": "abc" });
    assert.deepEqual(contract.gates[0]?.kind === "command" && contract.gates[0].run, ["/pinned/gate.sh"]);
    assert.equal(contract.body.hank, "/pinned/hank");
    assert.deepEqual(contract.hashFields, ["workspace", "gates"]);
  });

  test("the generation hash reads only its fields, blockers in any order", () => {
    const gates = [{ gateId: "t", verdict: "revise" as const, blockerIds: ["b", "a"], summary: "" }];
    const sorted = [
      { ...gates[0], gateId: "t", verdict: "revise" as const, blockerIds: ["a", "b"], summary: "x" },
    ];
    assert.equal(
      generationHash(["workspace", "gates"], { workspaceTree: "t1", gates }),
      generationHash(["workspace", "gates"], { workspaceTree: "t1", gates: sorted }),
    );
    assert.notEqual(
      generationHash(["workspace"], { workspaceTree: "t1", gates }),
      generationHash(["workspace"], { workspaceTree: "t2", gates }),
    );
    assert.equal(
      generationHash(["gates"], { workspaceTree: "t1", gates }),
      generationHash(["gates"], { workspaceTree: "t2", gates }),
    );
  });

  test("only unread operator notes hold back done; every unread message goes to the next generation", () => {
    const base = { runId: "r", createdAt: "t", author: "a", text: "x" };
    const messages = [
      { ...base, id: 2, kind: "operator_note" as const, readByGeneration: null },
      { ...base, id: 1, kind: "gate_blocker" as const, readByGeneration: null },
      { ...base, id: 0, kind: "operator_note" as const, readByGeneration: 1 },
    ];
    assert.deepEqual(
      unreadOperatorMessages(messages).map((m) => m.id),
      [2],
    );
    assert.deepEqual(
      messagesForNextGeneration(messages).map((m) => m.id),
      [1, 2],
    );
    assert.match(renderInbox(messages.slice(0, 1)), /operator_note #2 from a/);
  });

  test("admission: the seven rows, a missing condition refuses, brakes the agent can reach warn", () => {
    const bare = load('[contract]\ngoal = "g"\niteration_cap = 0\n');
    const actability = { met: true, answer: "runs on scripted" };
    const report = admissionReport(bare, { checkpoints: false, actability, keeps: [], dollarBudgets: true });
    assert.equal(report.rows.length, 7);
    assert.equal(report.admitted, false);
    const missing = report.rows.filter((r) => !r.met).map((r) => r.condition);
    assert.deepEqual(missing, [
      "recurrence",
      "verifiability",
      "recoverability",
      "economics",
      "governability",
      "sedimentability",
    ]);
    assert.ok(report.warnings.some((w) => w.code === "body-dollar-budget"));
    const good = load(
      `owner = "o"\ncadence = "manual"\nescalation = ["./gate.sh"]\ndata = "."\n[contract]\ngoal = "g"\n[[gates]]\nid = "t"\nkind = "command"\nrun = ["npm", "test"]\n`,
    );
    const ok = admissionReport(good, { checkpoints: true, actability, keeps: [], dollarBudgets: false });
    assert.equal(ok.admitted, true);
    const codes = ok.warnings.map((w) => w.code);
    assert.ok(codes.includes("gate-reads-workspace"));
    assert.ok(codes.includes("brake-in-workspace"), "the body hank lies inside the data directory");
  });
});
