import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseScript } from "../../harness/scripted/index.ts";
import { planScript } from "./plan-script.ts";
import type { SessionPlan } from "./session-plan.ts";

describe("planScript: a session plan as scripted-agent directives", () => {
  const plans: Array<[SessionPlan, string]> = [
    [
      {
        kind: "work",
        steps: [
          { kind: "write", path: "notes/a.txt", content: "line one\nback\\slash\n" },
          { kind: "run", command: "cp notes/a.txt b.txt" },
        ],
        text: "Done.\nBye.",
      },
      "@write notes/a.txt line one\\nback\\\\slash\\n\n@run cp notes/a.txt b.txt\n@say Done.\\nBye.",
    ],
    [{ kind: "fault", fault: "overloaded" }, "@fail API Error: 529 Overloaded"],
    [{ kind: "overflow" }, "@exhaust-context"],
    [{ kind: "max-tokens", path: "cut.txt", content: "x" }, "@max-tokens"],
    [{ kind: "stall" }, "@sleep 600000"],
    [
      { kind: "over-budget", step: { kind: "write", path: "s.txt", content: "s" }, outputTokens: 600 },
      "@usage input=100 output=600\n@write s.txt s\n@sleep 600000",
    ],
  ];

  it("writes each plan as the directives that act it out, and every script parses", () => {
    for (const [plan, script] of plans) {
      assert.equal(planScript(plan), script);
      const parsed = parseScript(script);
      assert.equal(parsed.ok, true, `${plan.kind}: ${JSON.stringify(parsed)}`);
    }
  });

  it("escapes text so that the agent writes and says exactly the plan's text", () => {
    const parsed = parseScript(planScript(plans[0]?.[0] ?? { kind: "stall" }));
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.steps.map((step) => (step.kind === "write" || step.kind === "say" ? step.text : step.kind)),
      ["line one\nback\\slash\n", "run", "Done.\nBye."],
    );
  });
});
