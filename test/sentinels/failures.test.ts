import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon, startHankForTest } from "../../src/testing/index.ts";
import { sentinel, timeline } from "./support.ts";

const THREE_FILES = "@write a.txt 1\n@write b.txt 2\n@write c.txt 3\n@say done";

describe("sentinel failures", () => {
  it("a sentinel that does not load fails its codon with sentinel-load-failure when it is required", async () => {
    // Validation cannot know the environment: the missing key shows when the sentinel loads.
    const broken = sentinel({ model: "anthropic/claude-haiku-4-5" }, { failCodonIfNotLoaded: true });
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", THREE_FILES, { sentinels: [broken] })]),
    });
    assert.equal(run.result.status, "failed");
    const [completed] = run.data("codon.completed");
    assert.equal(completed?.failureReason?.type, "sentinel-load-failure");
    assert.equal(completed?.failureReason?.retriable, false);
    assert.deepEqual(completed?.failureReason?.sentinelRefs, ["watch"]);
    assert.match(
      completed?.failureReason?.message ?? "",
      /cannot run without its sentinel \(failCodonIfNotLoaded\): watch: Sentinel "watch": No API key/,
    );
    assert.equal(completed?.failedDuring, "preparing");
    assert.deepEqual(run.data("codon.started"), [], "the agent never started");
    run.remove();
  });

  it("a sentinel the codon can do without is a warning, and the codon runs with the others", async () => {
    const noKey = sentinel({ id: "real", model: "anthropic/claude-haiku-4-5" });
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", THREE_FILES, { sentinels: [noKey, sentinel()] })]),
      env: { PATH: process.env.PATH ?? "" },
    });
    assert.equal(run.result.status, "completed");
    const warnings = run.data("error").filter((e) => e.context === "sentinel");
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]?.message ?? "",
      /^Sentinel real of codon a was not loaded: Sentinel "real": No API key for sentinel model provider 'anthropic': set .*ANTHROPIC_API_KEY/,
    );
    assert.equal(warnings[0]?.severity, "warning");
    assert.deepEqual(
      run.data("sentinel.loaded").map((l) => l.sentinelId),
      ["watch"],
    );
    assert.equal(run.data("sentinel.output").length, 3);
    run.remove();
  });

  it("unloads after maxConsecutiveFailures failed calls, and a success resets the count", async () => {
    const flaky = sentinel({
      userPromptText: "@fail attempts=1,3,4,5 API Error: 500 Internal Server Error\n@say ok",
      errorHandling: { maxConsecutiveFailures: 3 },
    });
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@write a.txt 1\n@write b.txt 2\n@write c.txt 3\n@write d.txt 4\n@write e.txt 5", {
          sentinels: [flaky],
        }),
      ]),
    });
    assert.equal(run.result.status, "completed", "a sentinel's failures never fail its codon");
    assert.deepEqual(
      timeline(run.events).filter((t) => !t.startsWith("status:")),
      [
        "sentinel.loaded",
        "error:llm-call-failed",
        "output:ok",
        "error:llm-call-failed",
        "error:llm-call-failed",
        "error:llm-call-failed",
        "unloaded:consecutive-failures",
        "codon.completed",
      ],
    );
    assert.deepEqual(
      run.data("sentinel.error").map((e) => [e.consecutiveFailureCount, e.retriable]),
      [
        [1, true],
        [1, true],
        [2, true],
        [3, true],
      ],
    );
    run.remove();
  });

  it("unloads at once on a fatal error, unless unloadOnFatalError is false", async () => {
    const fatal = "@fail invalid_request_error: Invalid model\n@say never";
    const strict = await runHankForTest({
      hank: hankOf([scriptedCodon("a", THREE_FILES, { sentinels: [sentinel({ userPromptText: fatal })] })]),
    });
    assert.deepEqual(
      strict.data("sentinel.unloaded").map((u) => [u.reason, u.errorType]),
      [["fatal-error", "configuration"]],
    );
    assert.equal(strict.data("sentinel.error").length, 1);
    strict.remove();
    const tolerant = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", THREE_FILES, {
          sentinels: [
            sentinel({
              userPromptText: fatal,
              errorHandling: { maxConsecutiveFailures: 5, unloadOnFatalError: false },
            }),
          ],
        }),
      ]),
    });
    assert.equal(tolerant.data("sentinel.error").length, 3);
    assert.deepEqual(
      tolerant.data("sentinel.unloaded").map((u) => u.reason),
      ["codon-complete"],
    );
    tolerant.remove();
  });

  it("accepts a structured reply that fits its schema, rejects one that does not, and counts both costs", async () => {
    const reply =
      "@usage input=10 output=5 cost=0.01\n" +
      "@say <%= it.events[0].data.path === 'b.txt' ? 'no JSON here' : JSON.stringify({ file: it.events[0].data.path }) %>";
    const structured = sentinel(
      {
        userPromptText: reply,
        structuredOutput: {
          output: "object",
          schemaStr: '{"type":"object","properties":{"file":{"type":"string"}},"required":["file"]}',
        },
      },
      { outputPaths: { logFile: "files.jsonl" } },
    );
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", THREE_FILES, { sentinels: [structured] })]),
    });
    assert.deepEqual(
      run.data("sentinel.output").map((o) => [o.outputType, o.content]),
      [
        ["structured", { file: "a.txt" }],
        ["structured", { file: "c.txt" }],
      ],
    );
    const [rejected] = run.data("sentinel.error");
    assert.match(rejected?.message ?? "", /^structured output rejected: the reply is not JSON/);
    assert.equal(rejected?.cost, 0.01);
    assert.ok(Math.abs(run.state.totals.cost - 0.03) < 1e-9, String(run.state.totals.cost));
    const log = readFileSync(
      join(run.dir, ".hankweave", "sentinels", "outputs", "watch", "files.jsonl"),
      "utf8",
    );
    assert.equal(log, '{"file":"a.txt"}\n{"file":"c.txt"}\n');
    run.remove();
  });

  it("reports a template that fails on an event, and goes on with the next", async () => {
    const fragile = sentinel({
      userPromptText: "@say <%= it.events[0].data.path.startsWith('b') ? it.nothing.here : 'fine' %>",
    });
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", THREE_FILES, { sentinels: [fragile] })]),
    });
    assert.deepEqual(
      timeline(run.events).filter((t) => t.startsWith("output") || t.startsWith("error")),
      ["output:fine", "error:template-render-failed", "output:fine"],
    );
    assert.match(run.data("sentinel.error")[0]?.message ?? "", /template failed to render/);
    assert.equal(readdirSync(join(run.dir, ".hankweave", "sentinels", "outputs", "watch")).length, 1);
    run.remove();
  });

  it("a cancelled run aborts the call in flight and unloads its sentinels with shutdown", async () => {
    const abort = new AbortController();
    const running = startHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@write a.txt 1\n@sleep 60000", {
          sentinels: [sentinel({ userPromptText: "@sleep 30000\n@say too late" })],
        }),
      ]),
      signal: abort.signal,
    });
    await running.clock.nextTimer((t) => t.delayMs === 30_000);
    await running.clock.nextTimer((t) => t.delayMs === 60_000);
    abort.abort();
    const run = await running.done;
    assert.equal(run.result.status, "aborted");
    assert.deepEqual(run.data("sentinel.output"), []);
    assert.deepEqual(
      run.data("sentinel.unloaded").map((u) => [u.reason, u.llmCallCount]),
      [["shutdown", 0]],
    );
    assert.deepEqual(run.clock.pending(), []);
    run.remove();
  });

  it("reportToWebsocket leaves out lifecycle and error events, never the outputs that carry spend", async () => {
    const quiet = sentinel(
      {
        userPromptText: "@fail attempts=2 API Error: 500 Internal Server Error\n@say ok",
        reportToWebsocket: { lifecycle: true },
      },
      { reportToWebsocket: { lifecycle: false, errors: false, outputs: false } },
    );
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", THREE_FILES, { sentinels: [quiet] })]),
    });
    assert.deepEqual(
      timeline(run.events).filter((t) => !t.startsWith("status:")),
      ["output:ok", "output:ok", "codon.completed"],
    );
    run.remove();
  });
});
