import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { startDaemon } from "../../src/daemon/index.ts";
import { openSqliteLoopStore } from "../../src/daemon/store/sqlite-loop-store.ts";
import { LiveExecution, setUpAccess, startServer } from "../../src/server/index.ts";
import { hankOf, scriptedCodon } from "../../src/testing/index.ts";
import { systemClock } from "../../src/util/clock.ts";
import { serveHank } from "../server/support.ts";

/**
 * The `/ui/` routes of the run server and of the daemon, in process (no browser): content types, no
 * way out of the assets folder, the token rules, and the `history.sync` batches the page asks for.
 */

function assetsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hw-web-static-"));
  writeFileSync(join(dir, "app.js"), "console.log(1)");
  writeFileSync(join(dir, "app.css"), "body{}");
  writeFileSync(join(dir, "execution.html"), "<!doctype html><title>execution</title>");
  writeFileSync(join(dir, "loops.html"), "<!doctype html><title>loops</title>");
  return dir;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers, redirect: "manual" });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    headers: response.headers,
    body: await response.text(),
  };
}

/** A GET with a forged Host header (fetch may not set one): what a DNS-rebinding page would send. */
function statusWithHost(url: string, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host, authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("web: serving the app", () => {
  test("the run server serves /ui/ with content types and CSP, refuses paths out of the folder, keeps its token", async () => {
    const dir = assetsDir();
    const token = "a-token-of-twenty-chars";
    const host = new LiveExecution({
      execution: { hank: join(dir, "none"), model: "scripted" },
      stayOpen: false,
    });
    const access = setUpAccess({ token });
    if (!access.ok) throw new Error(access.message);
    const server = await startServer({
      execution: host,
      access: access.policy,
      serverVersion: "t",
      webAssetsDir: dir,
    });
    const base = `http://localhost:${server.port}`;
    try {
      assert.equal(
        (await get(`${base}/ui/`)).status,
        401,
        "the page needs the token when the server has one",
      );
      for (const page of ["execution.html", "loops.html"]) {
        assert.equal((await get(`${base}/ui/${page}`)).status, 401, `${page}: a page asked for by name too`);
      }
      const page = await get(`${base}/ui/?token=${token}`);
      assert.equal(page.status, 200);
      assert.equal(page.type, "text/html; charset=utf-8");
      assert.match(page.body, /<title>execution<\/title>/);
      assert.match(
        page.headers.get("content-security-policy") ?? "",
        /default-src 'none'; script-src 'self'/,
      );
      const script = await get(`${base}/ui/app.js`);
      assert.equal(script.status, 200, "scripts and styles hold no data and need no token");
      assert.equal(script.type, "text/javascript; charset=utf-8");
      assert.equal((await get(`${base}/ui/app.css`)).type, "text/css; charset=utf-8");
      assert.equal((await get(`${base}/ui?token=${token}`)).headers.get("location"), `/ui/?token=${token}`);
      for (const path of [
        "/ui/%2e%2e%2fpackage.json",
        "/ui/..%2f..%2fetc%2fpasswd",
        "/ui/.hidden.js",
        "/ui/sub/app.js",
        "/ui/app.ts",
      ]) {
        assert.equal((await get(`${base}${path}`)).status, 404, path);
      }
      assert.equal(await statusWithHost(`${base}/ui/`, "evil.example", token), 403);
      assert.equal((await get(`${base}/`)).status, 400, "other paths keep their answer");
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the daemon serves the Loops page with its token, lists loops with limits, refuses cross-origin changes", async () => {
    const dir = assetsDir();
    const store = await openSqliteLoopStore({ path: join(dir, "loops.db") });
    const daemon = await startDaemon({
      store,
      dbPath: join(dir, "loops.db"),
      home: join(dir, "home"),
      clock: systemClock(),
      env: {},
      limitConfig: { ceilings: { window: 12 } },
      tickMs: 60_000,
      log: () => undefined,
      webAssetsDir: dir,
    });
    try {
      assert.equal((await get(`${daemon.url}/ui/`)).status, 401);
      const page = await get(`${daemon.url}/ui/?token=${daemon.token}`);
      assert.match(page.body, /<title>loops<\/title>/);
      const loops = JSON.parse(
        (await get(`${daemon.url}/loops`, { authorization: `Bearer ${daemon.token}` })).body,
      );
      assert.deepEqual(loops.loops, []);
      assert.equal(loops.defaults.delivery.window, 3);
      assert.equal(loops.ceilings.window, 12);
      const post = await fetch(`${daemon.url}/runs/none/commands`, {
        method: "POST",
        headers: { authorization: `Bearer ${daemon.token}`, origin: "http://evil.example" },
        body: JSON.stringify({ type: "stop" }),
      });
      assert.equal(post.status, 403);
    } finally {
      await daemon.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("history.sync {batchSize} sends the journal in batches, every event once, in order", async () => {
    const run = await serveHank(hankOf([scriptedCodon("a", "@say one"), scriptedCodon("b", "@say two")]));
    try {
      await run.host.ended;
      const client = await run.connect("readonly");
      client.send("history.sync", { batchSize: 4 });
      await client.waitFor(
        (frame) =>
          frame.kind === "unjournaled" && frame.type === "history.batch" && frame.data.hasMore === false,
      );
      const batches = client.unjournaled("history.batch") as Array<{
        events: Array<{ seq: number }>;
        hasMore: boolean;
      }>;
      assert.ok(batches.every((batch) => batch.events.length <= 4));
      assert.ok(batches.slice(0, -1).every((batch) => batch.events.length === 4 && batch.hasMore));
      assert.deepEqual(
        batches.flatMap((batch) => batch.events.map((event) => event.seq)),
        run.journal().map((event) => event.seq),
      );
    } finally {
      await run.remove();
    }
  });
});
