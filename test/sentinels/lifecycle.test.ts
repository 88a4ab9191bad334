import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { hankOf, runHankForTest, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { sentinel, timeline } from "./support.ts";

const WRITES = "@write a.txt 1\n@write b.txt 2\n@say done";

describe("sentinels through a run", () => {
  it("drain when the codon ends, in status completing-sentinels, and see its codon.completed", async () => {
    const statusAtOutput: string[] = [];
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", WRITES, {
          sentinels: [
            sentinel({ execution: { strategy: "debounce", milliseconds: 60_000 } }),
            sentinel({ id: "ends", trigger: { type: "event", on: ["codon.completed"] } }),
          ],
        }),
      ]),
      listeners: [
        (event: JournaledEvent, state) => {
          if (event.type === "sentinel.output") statusAtOutput.push(state.codons[0]?.status ?? "none");
        },
      ],
    });
    assert.equal(run.result.status, "completed");
    // The debounce never fired on the clock: the drain sent both files as one trigger.
    assert.deepEqual(timeline(run.events), [
      "status:preparing",
      "sentinel.loaded",
      "sentinel.loaded",
      "status:starting",
      "status:initializing",
      "status:running",
      "status:completing-sentinels",
      "output:saw a.txt, b.txt",
      "codon.completed",
      "output:saw codon.completed",
      "unloaded:codon-complete",
      "unloaded:codon-complete",
    ]);
    assert.deepEqual(statusAtOutput, ["completing-sentinels", "completed"]);
    assert.equal(run.data("sentinel.output")[0]?.eventCount, 2);
    assert.deepEqual(run.clock.pending(), [], "no sentinel timer is left behind");
    run.remove();
  });

  it("never hand sentinel events to sentinels", async () => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@write a.txt 1", {
          sentinels: [
            sentinel({
              trigger: { type: "event", on: ["*"] },
              userPromptText: "@say <%= it.events[0].type %>",
            }),
          ],
        }),
      ]),
    });
    const seen = run.data("sentinel.output").map((output) => output.content);
    assert.ok(seen.includes("file.updated") && seen.includes("codon.completed"), String(seen));
    assert.ok(
      seen.every((type) => typeof type === "string" && !type.startsWith("sentinel.")),
      String(seen),
    );
    run.remove();
  });

  it("write their outputs: a default log in .hankweave, configured files in agentRoot", async () => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", WRITES, {
          sentinels: [
            sentinel(),
            sentinel(
              {
                id: "files",
                userPromptText: "@say <%= JSON.stringify({ file: it.events[0].data.path }) %>",
                structuredOutput: { output: "object", schemaStr: "z.object({ file: z.string() })" },
              },
              { outputPaths: { logFile: "reports/files.jsonl", lastValueFile: "reports/last-file.json" } },
            ),
          ],
        }),
      ]),
    });
    const outputsDir = join(run.dir, ".hankweave", "sentinels", "outputs", "watch");
    const [log] = readdirSync(outputsDir);
    assert.match(log ?? "", /^watch-a-\d+\.md$/);
    assert.equal(readFileSync(join(outputsDir, log ?? ""), "utf8"), "\n---\nsaw a.txt\n\n---\nsaw b.txt\n");
    assert.equal(
      readFileSync(join(run.agentRoot, "reports", "files.jsonl"), "utf8"),
      '{"file":"a.txt"}\n{"file":"b.txt"}\n',
    );
    assert.equal(
      readFileSync(join(run.agentRoot, "reports", "last-file.json"), "utf8"),
      '{\n  "file": "b.txt"\n}',
    );
    run.remove();
  });

  it("count their spend in the codon's cost, the run's totals and the budget summary", async () => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", `${WRITES}\n@usage input=100 output=10 cost=1`, {
          sentinels: [sentinel({ userPromptText: "@usage input=50 output=5 cost=0.25\n@say noted" })],
        }),
      ]),
    });
    assert.deepEqual(
      run.data("sentinel.output").map((o) => o.cost),
      [0.25, 0.25],
    );
    assert.equal(run.state.totals.cost, 1.5);
    assert.equal(run.state.codons[0]?.cost, 1.5);
    assert.equal(run.state.totals.outputTokens, 20);
    assert.equal(run.data("budget.summary")[0]?.rows[0]?.actual.dollars, 1.5);
    run.remove();
  });

  it("load fresh for each loop iteration, while a configured log accumulates", async () => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("revise", { type: "iterationLimit", limit: 2 }, [
          scriptedCodon("edit", "@append notes.md more", {
            onFailure: "ignore",
            sentinels: [
              sentinel(
                {
                  trigger: { type: "event", on: ["file.updated", "loop.iteration.completed"] },
                  userPromptText:
                    "@say <%= it.codon.id %> trigger <%= it.sentinel.triggerNumber %>: <%= it.events[0].type %>",
                },
                { outputPaths: { logFile: "watch.md" } },
              ),
            ],
          }),
        ]),
      ]),
    });
    assert.deepEqual(
      run.data("sentinel.output").map((o) => o.content),
      [
        "edit#0 trigger 1: file.updated",
        "edit#0 trigger 2: loop.iteration.completed",
        "edit#1 trigger 1: file.updated",
        "edit#1 trigger 2: loop.iteration.completed",
      ],
    );
    assert.equal(run.data("sentinel.loaded").length, 2);
    const log = join(run.dir, ".hankweave", "sentinels", "outputs", "watch", "watch.md");
    assert.ok(existsSync(log));
    assert.equal(readFileSync(log, "utf8").split("\n---\n").length - 1, 4);
    run.remove();
  });

  it("stay loaded across the retries of their codon and see every attempt", async () => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@write a.txt 1\n@fail attempts=1 API Error: 503 Service Unavailable\n@say done", {
          onFailure: "retry",
          retryConfig: { maxAttempts: 2, delayMs: 0 },
          sentinels: [sentinel({ trigger: { type: "event", on: ["file.updated", "codon.completed"] } })],
        }),
      ]),
    });
    assert.equal(run.result.status, "completed");
    assert.equal(run.data("sentinel.loaded").length, 1);
    assert.deepEqual(
      run.data("sentinel.output").map((o) => o.content),
      ["saw a.txt", "saw codon.completed", "saw a.txt", "saw codon.completed"],
    );
    assert.deepEqual(
      run.data("sentinel.unloaded").map((u) => u.reason),
      ["codon-complete"],
    );
    run.remove();
  });
});
