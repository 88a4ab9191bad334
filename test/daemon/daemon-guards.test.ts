import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, test } from "node:test";
import { INCREMENT, loopFixture } from "../loops/loop-fixture.ts";
import { fixtureDaemon } from "./fixture-daemon.ts";

/** A request to the daemon with any Host header (fetch does not let a caller set it). */
function raw(
  url: string,
  options: { host?: string; token?: string; method?: string; body?: unknown },
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.host !== undefined) headers.host = options.host;
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? "GET",
        headers,
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(text || "{}") }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

const TOML = `[contract]\ngoal = "g"\niteration_cap = 3\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;

describe("the daemon's API guards", { concurrency: 1 }, () => {
  test("a rebinding Host is refused; starts refuse cost fields and loosening overrides", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: TOML,
      scripts: { "check.sh": "#!/bin/sh\nexit 1\n" },
    });
    const daemon = await fixtureDaemon(fx);
    try {
      const rebound = await raw(`${daemon.url}/runs`, { host: "evil.example:80", token: daemon.token });
      assert.equal(rebound.status, 403);
      assert.equal(rebound.json.code, "unknown-host");
      const local = await raw(`${daemon.url}/runs`, { host: "localhost", token: daemon.token });
      assert.equal(local.status, 200);
      // Register the loop (a start does), so the API can start it by id.
      const first = await fx.admit({ idempotencyKey: "first" });
      if (first.kind !== "admitted") throw new Error(first.kind);
      await fx.store.addCommand(first.run.id, { type: "stop", by: "test" }, new Date().toISOString());
      const start = (body: unknown) =>
        raw(`${daemon.url}/loops/demo/runs`, { method: "POST", token: daemon.token, body });
      const cost = await start({ idempotencyKey: "k1", maxCostUsd: 5 });
      assert.deepEqual([cost.status, cost.json.code], [400, "cost-field"]);
      const nestedCost = await start({ set: { cost_usd: 5 } });
      assert.deepEqual([nestedCost.status, nestedCost.json.code], [400, "cost-field"]);
      const unknown = await start({ budget: 5 });
      assert.deepEqual([unknown.status, unknown.json.code], [400, "unknown-field"]);
      const loosen = await start({ idempotencyKey: "k2", set: { iteration_cap: 0 } });
      assert.deepEqual([loosen.status, loosen.json.code], [400, "loosened-limit"]);
      assert.match(String(loosen.json.error), /iteration_cap = 3/);
      const blank = await start({ idempotencyKey: "k3", admitAnyway: " " });
      assert.deepEqual([blank.status, blank.json.code], [400, "empty-admit-reason"]);
    } finally {
      await daemon.close();
      await fx.stopDriven();
      await daemon.settled();
      await fx.remove();
    }
  });
});
