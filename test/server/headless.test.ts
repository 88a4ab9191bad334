import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CliIo } from "../../src/cli/cli-io.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import { servedPortOf } from "../../src/server/find-server.ts";
import { connectClient } from "../../src/server/protocol-client.ts";
import { codon, hankOf, TestClient } from "./support.ts";

const TOKEN = "a-token-for-the-headless-run";

/** The CLI in this process, its stderr collected; `shows` resolves once stderr matches. */
function cli(dir: string) {
  let stderr = "";
  const waiters = new Set<() => void>();
  const output = (write: (text: string) => void) => ({ write, isTTY: false, columns: undefined });
  const io: CliIo = {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      NO_COLOR: "1",
      HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(dir, "executions"),
    },
    stdout: output(() => undefined),
    stderr: output((text) => {
      stderr += text;
      for (const wake of [...waiters]) wake();
    }),
    runtime: { version: "0.0.0-test", platform: "linux", arch: "x64", nodeVersion: process.version },
  };
  const shows = (pattern: RegExp): Promise<RegExpMatchArray> =>
    new Promise((resolve) => {
      const check = () => {
        const match = stderr.match(pattern);
        if (match === null) return;
        waiters.delete(check);
        resolve(match);
      };
      waiters.add(check);
      check();
    });
  return { io, shows, stderr: () => stderr };
}

describe("the CLI without a terminal", () => {
  for (const headless of [true, false]) {
    it(`${headless ? "--headless" : "no TTY"}: the line printer, and the server listens on the printed port, recorded in the lock`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "hw-headless-"));
      try {
        mkdirSync(join(dir, "hank"));
        writeFileSync(
          join(dir, "hank", "hank.json"),
          JSON.stringify(hankOf([codon("a", "@say a"), codon("hold", "@sleep 600000")])),
        );
        const exec = join(dir, "exec");
        const run = cli(dir);
        const args = [join(dir, "hank", "hank.json"), "-m", "scripted", "-e", exec];
        // The headless run also sets a token: every client must present it.
        const code = runCli(headless ? [...args, "--headless", "--token", TOKEN] : args, run.io);
        const [, port] = await run.shows(/WebSocket: ws:\/\/localhost:(\d+)\n/);
        const url = `ws://localhost:${port}`;
        if (headless) await assert.rejects(connectClient({ url, mode: "readonly" }), /HTTP 401/);
        const writer = await TestClient.connect(
          headless ? `${url}/?token=${TOKEN}` : url,
          "readandwrite",
          false,
        );
        await writer.waitForEvent(
          "codon.started",
          (e) => e.type === "codon.started" && e.data.codonId === "hold",
        );
        assert.deepEqual(servedPortOf(exec), { ok: true, port: Number(port) });
        assert.match(run.stderr(), /✓ a /, "the line printer reports the finished codon");
        assert.equal(run.stderr().includes(`Running in headless mode on port ${port}`), headless);
        writer.send("server.shutdown");
        assert.equal(await code, 0);
        assert.match(run.stderr(), /aborted/i);
        writer.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it("refuses a --token shorter than 16 characters, naming the flag", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hw-headless-"));
    try {
      const run = cli(dir);
      const code = await runCli([join(dir, "hank.json"), "--headless", "--token", "short"], run.io);
      assert.equal(code, 1);
      assert.equal(run.stderr(), "Invalid --token value: a token needs at least 16 characters.\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
