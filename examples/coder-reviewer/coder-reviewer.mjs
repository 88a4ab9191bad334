/**
 * A coder and a reviewer, iterated until the reviewer says LGTM and the tests pass.
 *
 *   npm run build
 *   node examples/coder-reviewer/coder-reviewer.mjs                  # offline: the scripted agent
 *   node examples/coder-reviewer/coder-reviewer.mjs --real           # the models of agents/*.md
 *   node examples/coder-reviewer/coder-reviewer.mjs --model pi/openai/gpt-5 --lifetime task
 *
 * Options: --workspace <dir> (default: a new temp directory), --max-iterations <n> (default 4),
 * --lifetime workflow|task (default workflow), --timeout-ms <n>, --max-dollars <n>.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { loadAgent, loop } from "hankweave";
import { scriptedTask } from "./scripted-conversation.mjs";

const { values } = parseArgs({
  options: {
    real: { type: "boolean", default: false },
    model: { type: "string" },
    workspace: { type: "string" },
    "max-iterations": { type: "string", default: "4" },
    lifetime: { type: "string", default: "workflow" },
    "timeout-ms": { type: "string" },
    "max-dollars": { type: "string" },
  },
});
const here = import.meta.dirname;
const model = values.model ?? (values.real ? undefined : "scripted");
const offline = model === "scripted";
const workspace = values.workspace ?? mkdtempSync(join(tmpdir(), "coder-reviewer-"));

/** The judge: the reviewer's verdict, and the tests, run for real in the workspace. */
async function testsPass() {
  try {
    await promisify(execFile)(process.execPath, ["--test"], { cwd: workspace });
    return true;
  } catch {
    return false;
  }
}

const result = await loop({
  steps: [loadAgent(join(here, "agents", "coder.md")), loadAgent(join(here, "agents", "reviewer.md"))],
  input: offline ? scriptedTask : readFileSync(join(here, "task.md"), "utf8"),
  until: async (review) => review.output.trimStart().startsWith("LGTM") && (await testsPass()),
  maxIterations: Number(values["max-iterations"]),
  lifetime: values.lifetime,
  cwd: workspace,
  ...(model !== undefined && { model }),
  ...(values["timeout-ms"] !== undefined && { timeoutMs: Number(values["timeout-ms"]) }),
  ...(values["max-dollars"] !== undefined && { budget: { dollars: Number(values["max-dollars"]) } }),
  onEvent: (event) => {
    if (event.type === "codon.started")
      process.stderr.write(`> ${event.data.codonId} (${event.data.codonName})\n`);
  },
});

for (const step of result.steps) {
  const firstLine = step.output.split("\n").find((line) => line.trim() !== "") ?? "";
  const status = step.ok ? "ok" : `${step.error?.kind}: ${step.error?.message}`;
  console.log(`${step.iteration}. ${step.agent}: ${status} | ${firstLine.slice(0, 80)}`);
}
console.log(`workspace: ${result.workspace}`);
console.log(
  `ok: ${result.ok}, converged: ${result.converged}, end: ${result.endCause}, iterations: ${result.iterations}, cost: $${result.usage.costUsd.toFixed(4)}`,
);
process.exitCode = result.converged ? 0 : 1;
