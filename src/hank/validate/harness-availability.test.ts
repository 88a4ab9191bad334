import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateHank } from "./index.ts";

const hank = {
  hank: [
    { id: "a", name: "A", model: "gpt-5", continuationMode: "fresh", promptText: "x" },
    { id: "b", name: "B", model: "scripted", continuationMode: "fresh", promptText: "y" },
    { id: "c", name: "C", model: "gpt-5", continuationMode: "fresh", promptText: "z" },
  ],
};

describe("harness availability", () => {
  it("warns once per harness that cannot load, at its first codon, with the hint", () => {
    const report = validateHank(hank, {
      hankPath: "/h/hank.json",
      hankDir: "/h",
      env: {},
      harnessProblem: (kind) =>
        kind === "pi" ? "Install it: npm install @mariozechner/pi-coding-agent@0.73" : undefined,
    });
    const issues = report.issues.filter((issue) => issue.code === "harness-unavailable");
    assert.equal(report.ok, true);
    assert.deepEqual(issues, [
      {
        severity: "warning",
        code: "harness-unavailable",
        path: ["hank", 0, "model"],
        message: "Model 'gpt-5' runs on the pi harness, which cannot load here.",
        hint: "Install it: npm install @mariozechner/pi-coding-agent@0.73",
      },
    ]);
  });

  it("checks nothing without a probe", () => {
    const report = validateHank(hank, { hankPath: "/h/hank.json", hankDir: "/h", env: {} });
    assert.equal(report.issues.filter((issue) => issue.code === "harness-unavailable").length, 0);
  });
});
