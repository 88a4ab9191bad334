import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { layOutLoopFiles, promptText } from "./loop-files.ts";
import { buildLoopHank, stepIds } from "./loop-hank.ts";
import { checkLoopOptions } from "./loop-options.ts";

describe("the hank a loop is written as", () => {
  it("is one loop whose codons are the steps, reading their inputs from their own files", () => {
    const options = checkLoopOptions({
      steps: [
        { name: "Coder", model: "sonnet", instructions: " Write code. ", retry: { maxAttempts: 3 } },
        { name: "Reviewer", model: "haiku", env: { STRICT: "1" }, idleTimeoutSeconds: 60 },
      ],
      input: "Add a parser.",
      maxIterations: 4,
      timeoutMs: 90_000,
      budget: { dollars: 2, seconds: 600, tokens: 1000 },
      lifetime: "workflow",
    });
    const { hank, steps } = buildLoopHank(options, true);
    assert.deepEqual(
      steps.map((step) => [step.configId, step.agentName, step.promptFile]),
      [
        ["coder", "Coder", "prompts/coder.md"],
        ["reviewer", "Reviewer", "prompts/reviewer.md"],
      ],
    );
    assert.deepEqual(hank.hank, [
      {
        type: "loop",
        id: "loop",
        name: "Coder → Reviewer",
        terminateOn: { type: "iterationLimit", limit: 4 },
        budget: { maxDollars: 2, maxTimeSeconds: 600 },
        codons: [
          {
            id: "coder",
            name: "Coder",
            model: "sonnet",
            continuationMode: "fresh",
            promptFile: "prompts/coder.md",
            appendSystemPromptText: "Write code.",
            onFailure: "retry",
            retryConfig: { maxAttempts: 3, delayMs: 1000, maxDelayMs: 60_000 },
            checkpointedFiles: ["**"],
            budget: { maxTimeSeconds: 90, onExceeded: "fail" },
          },
          {
            id: "reviewer",
            name: "Reviewer",
            model: "haiku",
            continuationMode: "fresh",
            promptFile: "prompts/reviewer.md",
            env: { STRICT: "1" },
            shimIdleTimeout: 60,
            checkpointedFiles: ["**"],
            budget: { maxTimeSeconds: 90, onExceeded: "fail" },
          },
        ],
      },
    ]);
    assert.match(
      hank.meta?.description ?? "",
      /lifetime workflow; token budget 1000; input sha256 [0-9a-f]{16}/,
    );
  });

  it("uses the workflow's model override, and no checkpoints when not durable", () => {
    const options = checkLoopOptions({
      steps: [{ name: "a", model: "sonnet" }],
      input: "x",
      model: "scripted",
    });
    const [item] = buildLoopHank(options, false).hank.hank;
    assert.ok(item?.type === "loop");
    assert.equal(item.codons[0]?.model, "scripted");
    assert.equal(item.codons[0]?.checkpointedFiles, undefined);
  });

  it("makes codon ids from names, unique and without runtime-id characters", () => {
    assert.deepEqual(stepIds(["Coder", "Code Reviewer", "coder", "#!", "step-4"]), [
      "coder-1",
      "code-reviewer",
      "coder-3",
      "step-4",
      "step-4-5",
    ]);
  });

  it("keeps a step's text as its prompt, even one starting with a Markdown rule", () => {
    assert.equal(promptText("Fix the parser."), "Fix the parser.");
    assert.equal(promptText("---\ntitle: x\n---\nbody"), "\n---\ntitle: x\n---\nbody");
  });

  it("carries tool settings beside the hank, never in it, and records them in its description", () => {
    const build = (tools?: { allow?: string[]; deny?: string[] }) =>
      buildLoopHank(
        checkLoopOptions({
          steps: [
            { name: "coder", model: "scripted", ...(tools !== undefined && { tools }) },
            { name: "reviewer", model: "scripted" },
          ],
          input: "Add a parser.",
        }),
        false,
      );
    const plain = build();
    const allowed = build({ allow: ["Write"] });
    const denied = build({ deny: ["Write"] });
    assert.equal(plain.codonTools, undefined);
    assert.deepEqual(allowed.codonTools, { coder: { allow: ["Write"] } });
    assert.deepEqual(allowed.hank.hank, plain.hank.hank, "hank files keep the reference format");
    assert.doesNotMatch(plain.hank.meta?.description ?? "", /tools/);
    const descriptions = new Set([plain, allowed, denied].map((loop) => loop.hank.meta?.description));
    assert.equal(descriptions.size, 3, "a durable loop is not continued with other tools");
  });
});

describe("a loop's step inputs", () => {
  const options = checkLoopOptions({
    steps: [
      { name: "Coder", model: "scripted" },
      { name: "Reviewer", model: "scripted" },
    ],
    input: "Go.",
  });

  it("go to the step's file in a durable loop, and stay in memory in a transient one; both are held", () => {
    const dir = mkdtempSync(join(tmpdir(), "hankweave-loop-files-"));
    try {
      const loop = buildLoopHank(options, true);
      const [coder] = loop.steps;
      assert.ok(coder !== undefined);
      const durable = layOutLoopFiles(join(dir, "durable"), loop);
      durable.writeInput(coder, "---\nA rule, not front matter.");
      assert.equal(
        readFileSync(join(dir, "durable", coder.promptFile), "utf8"),
        "\n---\nA rule, not front matter.",
      );
      assert.equal(durable.held(coder.promptFile), "\n---\nA rule, not front matter.", "not read back");

      const transient = layOutLoopFiles(join(dir, "transient"), loop, true);
      transient.writeInput(coder, "---\nA rule, not front matter.");
      assert.equal(
        readFileSync(join(dir, "transient", coder.promptFile), "utf8"),
        "",
        "the file stays a placeholder",
      );
      assert.equal(transient.held(coder.promptFile), "\n---\nA rule, not front matter.");
      assert.equal(transient.held("prompts/other.md"), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
