import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { spanTreeLines, startOtlpReceiver } from "../../src/testing/index.ts";
import { fixtureDaemon } from "../daemon/fixture-daemon.ts";
import { countGate, INCREMENT, loopFixture, until } from "../loops/loop-fixture.ts";

/**
 * Item: a daemon with `OTEL_EXPORTER_OTLP_ENDPOINT` set exports each Loop run that ends as
 * loop run → generation → body and gate, here two generations behind a command gate (revise, then
 * pass), received and decoded by the test kit's OTLP receiver.
 */
const CHECK = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;

describe("OpenTelemetry traces of Loop runs", () => {
  test("loop run → generation → body and gate, with verdicts", { timeout: 120_000 }, async () => {
    const receiver = await startOtlpReceiver();
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(2) },
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
        "    body",
        "    gate check",
        "  generation 2",
        "    body",
        "    gate check",
      ]);
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
