import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runExecution, startExecution } from "../../src/runner/index.ts";
import {
  type OtlpReceiver,
  type ReceivedSpan,
  spanTreeLines,
  startOtlpReceiver,
} from "../../src/testing/index.ts";
import { runOptions } from "../runner/support.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: a run with `OTEL_EXPORTER_OTLP_ENDPOINT` set exports the span tree run → codon → attempt →
 * model turn → tool call, loop iterations under the run, through the real OTLP exporter to the
 * in-process receiver. The hank has a retry (attempt 1 fails), a tool call, a loop of two iterations
 * and a codon cancelled by Ctrl-C; resuming the execution continues the same trace.
 */

const SECRET = "sk-ant-tracing-secret-0123456789";

function hankDir(root: string): string {
  return writeHank(join(root, "hank"), [
    codon(
      "a",
      `@fail attempts=1 API Error: 503 Service Unavailable\n@write notes.txt ${SECRET}\n@usage input=120 output=30`,
      {
        onFailure: "retry",
        retryConfig: { maxAttempts: 2, delayMs: 0, maxDelayMs: 0 },
      },
    ),
    {
      type: "loop",
      id: "L",
      name: "L",
      terminateOn: { type: "iterationLimit", limit: 2 },
      codons: [codon("x", "@append trail.txt x\n@usage input=10 output=5")],
    },
    codon("c", "@sleep 600000"),
  ]);
}

describe("OpenTelemetry traces of a run", () => {
  const box = sandbox("otel");
  let receiver: OtlpReceiver;
  before(async () => {
    receiver = await startOtlpReceiver();
  });
  after(async () => {
    await receiver.close();
    box.remove();
  });

  it("exports run → codon → attempt → model turn → tool call, loop iterations, and ends on Ctrl-C", async () => {
    const base = runOptions(box, hankDir(box.root), { execution: join(box.root, "exec") });
    const cancel = new AbortController();
    const handle = startExecution({
      ...base,
      env: { ...base.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: "trace-test" },
      signal: cancel.signal,
    });
    handle.events.subscribe((event) => {
      if (event.type === "codon.started" && event.data.codonId === "c") setTimeout(() => cancel.abort(), 50);
    });
    const result = await handle.done;
    assert.equal(result.kind === "ran" && result.outcome, "aborted");
    await receiver.waitFor((spans) => spans.some((span) => span.name === "hankweave.run"));
    const spans = receiver.spans;
    // Iterations are written when they end, with their measured start: their order against the first
    // codon of the iteration is a tie, so they are checked apart.
    assert.deepEqual(
      spanTreeLines(spans).filter((line) => !line.includes("loop L")),
      [
        "hankweave.run",
        "  codon a",
        "    attempt 1",
        "    attempt 2",
        "      chat scripted",
        "        execute_tool Write",
        "  codon x#0",
        "    attempt 1",
        "      chat scripted",
        "        execute_tool Edit",
        "  codon x#1",
        "    attempt 1",
        "      chat scripted",
        "        execute_tool Edit",
        "  codon c",
        "    attempt 1",
      ],
    );
    const run = one(spans, "hankweave.run");
    const iterations = spans.filter((span) => span.name.startsWith("loop L iteration"));
    assert.deepEqual(
      iterations.map((span) => [span.parentSpanId, span.attributes["hankweave.loop.iteration"]]),
      [
        [run.spanId, 0],
        [run.spanId, 1],
      ],
    );
    assert.equal(iterations[1]?.attributes["hankweave.loop.final"], true);
    assert.equal(run.resource["service.name"], "trace-test");
    assert.equal(run.attributes["hankweave.run.outcome"], "aborted");
    assert.equal(run.status.code, 0, "a delivered cancel is not an error");
    const attempts = spans.filter(
      (span) => span.name.startsWith("attempt") && span.attributes["hankweave.codon.id"] === "a",
    );
    assert.equal(attempts[0]?.status.code, 2, "the failed attempt is an error");
    assert.equal(attempts[0]?.attributes["hankweave.failure.type"], "api-error");
    assert.equal(attempts[1]?.status.code, 0);
    const turn = spans.find((span) => span.name === "chat scripted");
    assert.equal(turn?.attributes["gen_ai.request.model"], "scripted");
    assert.equal(turn?.attributes["gen_ai.usage.input_tokens"], 120);
    assert.equal(turn?.attributes["gen_ai.usage.output_tokens"], 30);
    assert.equal(one(spans, "execute_tool Write").attributes["gen_ai.tool.name"], "Write");
    const cancelled = spans.find(
      (span) => span.attributes["hankweave.codon.id"] === "c" && span.name === "attempt 1",
    );
    assert.equal(cancelled?.attributes["hankweave.end_reason"], "aborted");
    assert.equal(cancelled?.status.code, 0);
    assert.equal(new Set(spans.map((span) => span.traceId)).size, 1, "one trace");
    assert.equal(
      JSON.stringify(spans, (_, v) => (typeof v === "bigint" ? String(v) : v)).includes(SECRET),
      false,
    );
    assert.ok(
      receiver.contentTypes.every((type) => type.includes("protobuf")),
      "protobuf by default",
    );
  });

  it("continues the same trace when the execution is resumed, here over OTLP JSON", async () => {
    const traceId = one(receiver.spans, "hankweave.run").traceId;
    const before = receiver.spans.length;
    const base = runOptions(box, join(box.root, "hank"), { execution: join(box.root, "exec") });
    const done = runExecution({
      ...base,
      env: {
        ...base.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      },
      signal: AbortSignal.timeout(2000),
    });
    await done;
    await receiver.waitFor((spans) => spans.slice(before).some((span) => span.name === "hankweave.run"));
    const resumed = receiver.spans.slice(before);
    assert.ok(
      resumed.every((span) => span.traceId === traceId),
      "the resumed run is in the same trace",
    );
    assert.ok(receiver.contentTypes.some((type) => type.includes("json")));
  });
});

function one(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.find((span) => span.name === name);
  assert.ok(found, `no span named ${name}`);
  return found;
}
