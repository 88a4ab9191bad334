import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codon, hankOf, serveHank } from "../server/support.ts";

/**
 * Item: a run's server answers `GET /metrics` (Prometheus text) with the run's codon counters and
 * durations, under the token when one is set.
 */
describe("a run's server metrics", () => {
  it("counts codon attempts by outcome, their durations, tokens and cost; needs the token", {
    timeout: 60_000,
  }, async () => {
    const served = await serveHank(
      hankOf([
        codon("a", "@usage input=100 output=10\n@say a"),
        codon("b", "@usage input=50 output=5\n@say b"),
      ]),
      { serverOptions: { token: "metrics-token-0123456789" }, stayOpen: true },
    );
    try {
      const base = served.server.url.replace("ws://", "http://");
      await waitForCompletedCodons(served, 2);
      assert.equal((await fetch(`${base}/metrics`)).status, 401);
      const page = await fetch(`${base}/metrics`, {
        headers: { authorization: "Bearer metrics-token-0123456789" },
      });
      assert.equal(page.status, 200);
      const text = await page.text();
      assert.match(text, /hankweave_codon_attempts_started_total 2/);
      assert.match(text, /hankweave_codon_attempts_total\{outcome="completed"\} 2/);
      assert.match(text, /hankweave_codon_attempt_duration_seconds_count\{outcome="completed"\} 2/);
      assert.match(text, /hankweave_tokens_total\{kind="input"\} 150/);
      assert.match(text, /hankweave_tokens_total\{kind="output"\} 15/);
    } finally {
      await served.remove();
    }
  });
});

async function waitForCompletedCodons(
  served: { journal(): { type: string }[] },
  count: number,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (served.journal().filter((event) => event.type === "codon.completed").length < count) {
    if (Date.now() > deadline) throw new Error("the run did not complete its codons");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
