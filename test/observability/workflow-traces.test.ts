import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type OtlpReceiver,
  type ReceivedSpan,
  spanTreeLines,
  startOtlpReceiver,
} from "../../src/testing/index.ts";
import { loop } from "../../src/workflows/index.ts";
import { CODER, chain, mark, REVIEWER, sandbox } from "../workflows/support.ts";

/**
 * Item: a `loop()` traced through `OTEL_EXPORTER_OTLP_ENDPOINT` exports its own span, one span per
 * step execution under it, and its run's tree (run → codon → attempt → model turn) nested under it,
 * through the real OTLP exporter to the test kit's receiver, transient and durable alike.
 */

const CHILD = fileURLToPath(new URL("./otel-modules-child.ts", import.meta.url));

const CONVERSATION = chain([mark("c1"), mark("r1"), mark("c2"), mark("r2")], "LGTM");

function childrenOf(spans: readonly ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return spans.filter((span) => span.parentSpanId === parent.spanId);
}

describe("OpenTelemetry traces of loop()", () => {
  const sb = sandbox("otel");
  let receiver: OtlpReceiver;
  before(async () => {
    mkdirSync(sb.path("work"));
    receiver = await startOtlpReceiver();
  });
  after(async () => {
    await receiver.close();
    sb.remove();
  });

  async function tracedLoop(durable: boolean): Promise<ReceivedSpan[]> {
    const seen = receiver.spans.length;
    const result = await loop({
      steps: [CODER, REVIEWER],
      input: CONVERSATION,
      maxIterations: 2,
      cwd: sb.path("work"),
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      ...(durable && { durable: { dir: sb.path("durable") } }),
    });
    assert.equal(result.endCause, "max-iterations");
    await receiver.waitFor((spans) => spans.slice(seen).some((span) => span.name.startsWith("loop coder")));
    return receiver.spans.slice(seen);
  }

  it("a transient loop: loop → step spans, and the run's tree under the loop", async () => {
    const spans = await tracedLoop(false);
    const root = spans.find((span) => span.name === "loop coder, reviewer");
    assert.ok(root, spanTreeLines(spans).join("\n"));
    assert.deepEqual(
      // Steps start with their codons and iterations end with them: both are checked apart.
      spanTreeLines(spans).filter((line) => /^ {0,4}\S/.test(line) && !/ iteration |step /.test(line)),
      [
        "loop coder, reviewer",
        "  hankweave.run",
        "    codon coder#0",
        "    codon reviewer#0",
        "    codon coder#1",
        "    codon reviewer#1",
      ],
    );
    const steps = childrenOf(spans, root).filter((span) => span.name.startsWith("step "));
    assert.deepEqual(
      steps.map((span) => [
        span.attributes["gen_ai.agent.name"],
        span.attributes["hankweave.loop.iteration"],
        span.attributes["hankweave.codon.id"],
        span.attributes["hankweave.end_reason"],
        span.attributes["gen_ai.request.model"],
      ]),
      [
        ["coder", 1, "coder#0", "completed", "scripted"],
        ["reviewer", 1, "reviewer#0", "completed", "scripted"],
        ["coder", 2, "coder#1", "completed", "scripted"],
        ["reviewer", 2, "reviewer#1", "completed", "scripted"],
      ],
    );
    for (const step of steps) assert.ok(step.startNs <= step.endNs && step.startNs >= root.startNs);
    assert.equal(root.attributes["hankweave.loop.iterations"], 2);
    assert.equal(root.attributes["hankweave.loop.end_cause"], "max-iterations");
    assert.equal(root.attributes["hankweave.loop.converged"], true);
    assert.ok(Number(root.attributes["gen_ai.usage.output_tokens"]) > 0);
    assert.equal(typeof root.attributes["hankweave.cost_usd"], "number");
    assert.equal(root.status.code, 0);
    assert.equal(new Set(spans.map((span) => span.traceId)).size, 1);
    assert.ok(
      spans.some((span) => span.name === "chat scripted"),
      "the run's tree goes down to the turns",
    );
  });

  it("a durable loop: the runner's run is nested under the loop's span too", async () => {
    const spans = await tracedLoop(true);
    const root = spans.find((span) => span.name === "loop coder, reviewer");
    assert.ok(root);
    const run = spans.find((span) => span.name === "hankweave.run");
    assert.equal(run?.parentSpanId, root.spanId);
    assert.equal(root.attributes["hankweave.loop.durable"], true);
    assert.equal(childrenOf(spans, root).filter((span) => span.name.startsWith("step ")).length, 4);
    assert.equal(new Set(spans.map((span) => span.traceId)).size, 1);
  });

  it("off loads nothing: a loop() without OTEL_* variables imports no OpenTelemetry module", () => {
    const loaded = (env: Record<string, string>) =>
      Number(
        execFileSync(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(env)], {
          encoding: "utf8",
          env: { PATH: process.env.PATH ?? "" },
        }).trim(),
      );
    assert.equal(loaded({}), 0);
    // The same count, tracing on, is not zero: the check sees what it looks for.
    assert.ok(loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }) > 0);
  });
});
