import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { freePort } from "../../src/testing/postgres-server.ts";
import { fixtureDaemon } from "../daemon/fixture-daemon.ts";
import { countGate, INCREMENT, loopFixture, until } from "../loops/loop-fixture.ts";

/**
 * Item: a real Prometheus (Debian's, installed by .ci/run) scrapes the daemon's `GET /metrics` with the
 * daemon's token, and its HTTP API answers a query for a Loop's generations after a Loop ran two
 * generations behind a gate.
 */

const PROMETHEUS = "/usr/bin/prometheus";
const CHECK = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;

describe("Prometheus metrics of the daemon", {
  skip: !existsSync(PROMETHEUS) && "no /usr/bin/prometheus",
}, () => {
  // Bounded: a prometheus that never scrapes fails the test instead of hanging it.
  test("GET /metrics needs the token and reports a Loop's generations and gate verdicts", {
    timeout: 120_000,
  }, async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(2) },
    });
    const daemon = await fixtureDaemon(fx);
    const scratch = mkdtempSync(join(tmpdir(), "hw-prom-"));
    let prometheus: ChildProcess | undefined;
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      await daemon.tick();
      await until(async () => (await fx.store.getRun(admitted.run.id))?.state === "done", "run done");

      assert.equal((await fetch(`${daemon.url}/metrics`)).status, 401);
      const page = await fetch(`${daemon.url}/metrics`, {
        headers: { authorization: `Bearer ${daemon.token}` },
      });
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/plain/);
      const text = await page.text();
      assert.match(text, /hankweave_loop_runs\{state="done"\} 1/);
      assert.match(text, /hankweave_loop_generations\{loop="[^"]+",outcome="completed"\} 2/);
      assert.match(text, /hankweave_loop_gate_verdicts\{loop="[^"]+",gate="check",verdict="pass"\} 1/);
      assert.match(text, /hankweave_loop_gate_verdicts\{loop="[^"]+",gate="check",verdict="revise"\} 1/);
      // Nothing was taken over or escalated: the counters are declared, with no sample yet.
      assert.match(text, /# TYPE hankweave_loop_lease_takeovers_total counter/);
      assert.match(text, /# TYPE hankweave_loop_escalations_total counter/);

      const port = await freePort();
      prometheus = startPrometheus(scratch, port, new URL(daemon.url).host, daemon.token);
      const answer = await until(async () => {
        const result = await query(port, "hankweave_loop_generations").catch(() => undefined);
        return result !== undefined && result.length > 0 ? result : undefined;
      }, "a scrape by prometheus");
      const completed = answer.find((sample) => sample.metric.outcome === "completed");
      assert.equal(completed?.value[1], "2");
    } finally {
      prometheus?.kill("SIGTERM");
      await daemon.close();
      await fx.remove();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

function startPrometheus(dir: string, port: number, target: string, token: string): ChildProcess {
  const config = join(dir, "prometheus.yml");
  writeFileSync(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "scrape_configs:",
      "  - job_name: hankweave",
      "    metrics_path: /metrics",
      "    authorization:",
      `      credentials: ${token}`,
      "    static_configs:",
      `      - targets: ["${target}"]`,
      "",
    ].join("\n"),
  );
  return spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: "ignore" },
  );
}

interface Sample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

async function query(port: number, expression: string): Promise<Sample[]> {
  const response = await fetch(
    `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expression)}`,
    { signal: AbortSignal.timeout(2000) },
  );
  const body = (await response.json()) as { data?: { result?: Sample[] } };
  return body.data?.result ?? [];
}
