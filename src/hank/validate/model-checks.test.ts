import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, run, withCode } from "./test-kit.ts";

function codonModels(report: ReturnType<typeof run>): string[] {
  return (report.hank?.hank ?? [])
    .flatMap((item) => (item.type === "loop" ? item.codons : [item]))
    .map((c) => c.model);
}

describe("model checks", () => {
  it("rejects an unknown model with suggestions", () => {
    const report = run(hankOf([codon("a", { model: "sonet" })]));
    assert.deepEqual(brief(only(report, "invalid-model")), {
      severity: "error",
      code: "invalid-model",
      path: ["hank", 0, "model"],
      message: "Invalid model 'sonet': Model 'sonet' not found in registry. Did you mean 'sonnet'?",
    });
    assert.equal(only(report, "invalid-model").hint, "Use 'sonnet', or another id from the catalog.");
  });

  it("still checks the model of a codon that failed its schema", () => {
    const report = run(hankOf([codon("a", { model: "nope-model-x", name: 5 })]));
    assert.deepEqual(
      report.issues.map((i) => i.code),
      ["invalid-type", "invalid-model"],
    );
  });

  it("fills report.models by requested id", () => {
    const report = run(
      hankOf([codon("a", { model: "haiku" }), loop("l", [loopCodon("b", { model: "scripted/x" })])]),
    );
    assert.deepEqual([...report.models.keys()], ["haiku", "scripted/x"]);
    assert.equal(report.models.get("scripted/x")?.harness, "scripted");
    assert.equal(report.models.get("haiku")?.provider, "anthropic");
  });

  it("applies -m to every codon, loops included, before validation", () => {
    const raw = hankOf([
      codon("a", { model: "scripted/one", checkpointedFiles: ["x"] }),
      loop("l", [loopCodon("b", { model: "scripted/two", continuationMode: "continue-previous" })]),
    ]);
    assert.equal(withCode(run(raw), "continue-model-mismatch").length, 1);
    const report = run(raw, { modelOverride: "scripted" });
    assert.deepEqual(report.issues, []);
    assert.deepEqual(codonModels(report), ["scripted", "scripted"]);
    assert.deepEqual([...report.models.keys()], ["scripted"]);
  });

  it("reports an invalid -m once", () => {
    const report = run(hankOf([codon("a"), codon("b")]), { modelOverride: "gpt-nonexistent-zz" });
    const issue = only(report, "invalid-model");
    assert.deepEqual(issue.path, []);
    assert.match(
      issue.message,
      /^Invalid model 'gpt-nonexistent-zz' \(from the -m\/--model option\): Model 'gpt-nonexistent-zz' not found in registry\./,
    );
  });

  it("uses overrides.model for every codon when there is no -m, and validates it", () => {
    const raw = hankOf([codon("a", { model: "haiku" })], { overrides: { model: "scripted" } });
    assert.deepEqual(codonModels(run(raw)), ["scripted"]);
    assert.deepEqual(codonModels(run(raw, { modelOverride: "scripted/cli" })), ["scripted/cli"]);
    const bad = run(hankOf([codon("a"), codon("b")], { overrides: { model: "sonet" } }));
    assert.deepEqual(brief(only(bad, "invalid-model")), {
      severity: "error",
      code: "invalid-model",
      path: ["overrides", "model"],
      message: `Invalid model 'sonet' (from "overrides.model"): Model 'sonet' not found in registry. Did you mean 'sonnet'?`,
    });
    const alsoWithCli = run(hankOf([codon("a")], { overrides: { model: "sonet" } }), {
      modelOverride: "scripted",
    });
    assert.equal(only(alsoWithCli, "invalid-model").path.join("."), "overrides.model");
  });

  it("lets overrides.model stand in for a codon's missing model", () => {
    const { model: _model, ...noModel } = codon("a");
    assert.equal(run(hankOf([noModel], { overrides: { model: "haiku" } })).ok, true);
    assert.equal(only(run(hankOf([noModel])), "missing-field").message, 'Missing required field "model".');
  });
});
