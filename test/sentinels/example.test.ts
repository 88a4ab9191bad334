import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../fixtures/hankweave-cli.ts";

const EXAMPLE = resolve(import.meta.dirname, "..", "..", "examples", "sentinel-watch");

describe("examples/sentinel-watch", () => {
  it("runs with `hankweave -m scripted`: the build codons' observer writes its JSONL and its events", async () => {
    const base = mkdtempSync(join(tmpdir(), "hw-sentinel-example-"));
    try {
      const cli = await runCli([EXAMPLE, "-m", "scripted", "--headless"], {
        env: { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(base, "executions") },
      });
      assert.equal(cli.code, 0, cli.stderr);
      assert.match(cli.stderr, /Run completed: 3 codon\(s\) completed/);
      const [execution] = readdirSync(join(base, "executions"));
      const executionDir = join(base, "executions", execution ?? "");
      const agentRoot = join(executionDir, "agentRoot");
      const log = join(
        executionDir,
        ".hankweave",
        "sentinels",
        "outputs",
        "build-observer",
        "observations.jsonl",
      );
      const observations = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      assert.deepEqual(observations, [
        {
          codon: "build",
          files: ["src/greet.mjs", "README.md"],
          toolCalls: 3,
          failedToolCalls: 0,
          note: "Build greet(): 2 file(s) changed, 3 tool call(s)",
        },
        {
          codon: "test",
          files: ["test/greet.test.mjs"],
          toolCalls: 2,
          failedToolCalls: 0,
          note: "Test greet(): 1 file(s) changed, 2 tool call(s)",
        },
      ]);
      const last = JSON.parse(readFileSync(join(agentRoot, "reports", "last-observation.json"), "utf8"));
      assert.equal(last.codon, "test");
      const journal = readFileSync(join(executionDir, ".hankweave", "events", "events.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
      const sentinelEvents = journal
        .filter((e) => e.type.startsWith("sentinel."))
        .map((e) => `${e.type} ${e.data.codonId}`);
      assert.deepEqual(sentinelEvents, [
        "sentinel.loaded build",
        "sentinel.output build",
        "sentinel.unloaded build",
        "sentinel.loaded test",
        "sentinel.output test",
        "sentinel.unloaded test",
      ]);
      const loaded = journal.find((e) => e.type === "sentinel.loaded")?.data;
      assert.deepEqual(loaded, {
        sentinelId: "build-observer",
        codonId: "build",
        model: "scripted",
        triggerType: "event",
        executionStrategy: "debounce",
        conversational: false,
        source: "file",
        sourcePath: "./sentinels/build-observer.json",
      });
      assert.ok(readdirSync(join(agentRoot, "src")).includes("greet.mjs"));
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
