import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { describe, test } from "node:test";
import { countGate, INCREMENT, loopFixture, until } from "../loops/loop-fixture.ts";
import { fixtureDaemon } from "./fixture-daemon.ts";

const CHECK = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;

async function http(url: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers,
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

/** Reads the SSE stream until an event satisfies `match`; returns the events seen. */
function readStream(
  url: string,
  match: (data: Record<string, unknown>) => boolean,
): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const seen: Array<Record<string, unknown>> = [];
    const req = request(url, (response) => {
      let buffer = "";
      response.on("data", (chunk: Buffer) => {
        buffer += chunk.toString("utf8");
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split("\n").find((line) => line.startsWith("data: "));
          if (data === undefined) continue;
          const event = JSON.parse(data.slice(6)) as Record<string, unknown>;
          seen.push(event);
          if (match(event)) {
            req.destroy();
            resolve(seen);
          }
        }
      });
    });
    req.on("error", (error) => (seen.length > 0 ? undefined : reject(error)));
    req.end();
  });
}

describe("hankweave daemon", { concurrency: 2 }, () => {
  test("drives a started run to its end; the API needs the token; SSE streams the run's events", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(2) },
    });
    const daemon = await fixtureDaemon(fx);
    try {
      assert.equal(statSync(join(fx.dir, "daemon.token")).mode & 0o777, 0o600);
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      const id = admitted.run.id;
      const streamed = readStream(
        `${daemon.url}/events?after=0&token=${daemon.token}`,
        (e) => e.type === "run.state" && (e.data as { to?: string }).to === "done",
      );
      await daemon.tick();
      const done = await until(
        async () => ((await fx.store.getRun(id))?.state === "done" ? true : undefined),
        "done",
      );
      assert.equal(done, true);
      const events = await streamed;
      assert.ok(events.some((e) => e.type === "generation.started"));
      assert.equal((await http(`${daemon.url}/runs`)).status, 401);
      assert.equal((await http(`${daemon.url}/runs`, { token: "wrong" })).status, 401);
      const runs = await http(`${daemon.url}/runs`, { token: daemon.token });
      assert.equal(runs.status, 200);
      assert.ok(Array.isArray(runs.json) && runs.json.some((r: { id: string }) => r.id === id));
      const shown = await http(`${daemon.url}/runs/${id}`, { token: daemon.token });
      assert.equal((shown.json as { generations: unknown[] }).generations.length, 2);
      const bad = await http(`${daemon.url}/runs/${id}/commands`, {
        method: "POST",
        token: daemon.token,
        body: { type: "explode" },
      });
      assert.equal(bad.status, 400);
      const post = (body: unknown) =>
        http(`${daemon.url}/runs/${id}/commands`, { method: "POST", token: daemon.token, body });
      const approveDone = await post({ type: "approve", by: "ana" });
      assert.deepEqual(
        [approveDone.status, approveDone.json],
        [409, { error: "approve refused: the run is done, nothing waits for an approval" }],
        "a command the run would refuse is refused at once, not recorded",
      );
      assert.equal((await post({ type: "approve", add: "lots" })).status, 400);
      const noted = await http(`${daemon.url}/runs/${id}/notes`, {
        method: "POST",
        token: daemon.token,
        body: { text: "hi", by: "ana" },
      });
      // The run is done: a note would never be read by a generation, so it is refused, not stored.
      assert.equal(noted.status, 409);
    } finally {
      await daemon.close();
      await fx.remove();
    }
  });

  test("a schedule admits runs keyed by their fire time; forbid keeps one live at a time", async () => {
    const fx = await loopFixture({
      body: ["@say waiting for the operator\n@sleep 600000"],
      toml: `[trigger]\nschedule = "* * * * * *"\n[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(1) },
    });
    const daemon = await fixtureDaemon(fx);
    try {
      await fx.store.registerLoop({
        loopId: "demo",
        file: join(fx.dir, "demo.loop.toml"),
        name: "Demo",
        kind: "delivery",
        updatedAt: new Date().toISOString(),
      });
      await daemon.tick();
      const scheduled = await until(
        async () => (await fx.store.listRuns({ loopId: "demo" })).find((r) => r.trigger === "schedule"),
        "a scheduled run",
      );
      assert.match(scheduled.key, /^demo:schedule:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await fx.store.listRuns({ loopId: "demo", live: true })).length, 1);
      await fx.store.addCommand(scheduled.id, { type: "stop", by: "test" }, new Date().toISOString());
      await until(
        async () => ((await fx.store.getRun(scheduled.id))?.state === "failed" ? true : undefined),
        "stopped",
      );
    } finally {
      await daemon.close();
      await fx.stopDriven();
      await daemon.settled();
      await fx.remove();
    }
  });
});
