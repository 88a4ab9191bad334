import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isLoopEvent } from "../../src/events/loop-events.ts";
import { spanTreeLines, startOtlpReceiver } from "../../src/testing/index.ts";
import { fixtureDaemon } from "../daemon/fixture-daemon.ts";
import { countGate, INCREMENT, loopFixture, until } from "../loops/loop-fixture.ts";

/**
 * Item: a daemon with `OTEL_EXPORTER_OTLP_ENDPOINT` set exports each Loop run that ends as
 * loop run → generation → hook, body and gate, here two generations behind a `generation_pre` and a
 * `gate_pre` hook and a command gate (revise, then pass), received and decoded by the test kit's OTLP
 * receiver. The hooks' times come from the Loops event log (`hook.ran`).
 */
const CHECK = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;
const HOOKS = `[hooks]\ngeneration_pre = ["./allow.sh"]\ngate_pre = ["./allow.sh"]\n`;

describe("OpenTelemetry traces of Loop runs", () => {
  test("loop run → generation → hooks, body and gate, with verdicts", { timeout: 120_000 }, async () => {
    const receiver = await startOtlpReceiver();
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `${HOOKS}[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(2), "allow.sh": "#!/bin/sh\nexit 0\n" },
    });
    const daemon = await fixtureDaemon(fx, {
      env: { ...fx.deps().env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    });
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      await daemon.tick();
      await until(async () => (await fx.store.getRun(admitted.run.id))?.state === "done", "run done");
      await daemon.close();
      const loops = () => receiver.spans.filter((span) => span.scope === "hankweave.loops");
      await receiver.waitFor(() => loops().some((span) => span.name.startsWith("loop run")), 30_000);
      const spans = loops();
      const [root, ...rest] = spanTreeLines(spans);
      assert.match(root ?? "", /^loop run /);
      assert.deepEqual(rest, [
        "  generation 1",
        "    hook generation_pre",
        "    body",
        "    hook gate_pre",
        "    gate check",
        "  generation 2",
        "    hook generation_pre",
        "    body",
        "    hook gate_pre",
        "    gate check",
      ]);
      for (const hook of spans.filter((span) => span.name.startsWith("hook "))) {
        const generation = spans.find((span) => span.spanId === hook.parentSpanId);
        assert.ok(generation && generation.startNs <= hook.startNs && hook.endNs <= generation.endNs);
        assert.ok(hook.startNs <= hook.endNs);
        assert.equal(hook.attributes["hankweave.hook.answer"], "allow");
      }
      const logged = (await fx.store.events(0, admitted.run.id)).filter(isLoopEvent("hook.ran"));
      assert.deepEqual(
        logged.map((event) => [event.data.hook, event.data.generation, event.data.answer]),
        [
          ["generation_pre", 1, "allow"],
          ["gate_pre", 1, "allow"],
          ["generation_pre", 2, "allow"],
          ["gate_pre", 2, "allow"],
        ],
      );
      const verdicts = spans
        .filter((span) => span.name === "gate check")
        .map((span) => span.attributes["hankweave.gate.verdict"]);
      assert.deepEqual(verdicts, ["revise", "pass"]);
      assert.equal(new Set(spans.map((span) => span.traceId)).size, 1);
    } finally {
      await daemon.close();
      await fx.remove();
      await receiver.close();
    }
  });
});
