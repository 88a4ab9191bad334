import "./outside-ci.ts";
import assert from "node:assert/strict";
import { PassThrough, Writable } from "node:stream";
import { describe, it } from "node:test";
import { servedPortOf } from "../../src/server/find-server.ts";
import { attachCommand } from "../../src/tui/index.ts";
import { codon, hankOf, serveHank } from "../server/support.ts";

/** A terminal stand-in that is not a TTY: what the TUI draws is collected, no key can be read. */
function collector(): {
  stream: NodeJS.WriteStream;
  text: () => string;
  shows: (pattern: RegExp) => Promise<void>;
} {
  let text = "";
  const waiters = new Set<() => void>();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      for (const wake of [...waiters]) wake();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const shows = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!pattern.test(text)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return { stream, text: () => text, shows };
}

describe("--attach", () => {
  it("finds the port in the execution's lock, shows the history then the live run, and says how it ended", async () => {
    const served = await serveHank(hankOf([codon("a", "@say a"), codon("hold", "@sleep 600000")]), {
      start: false,
    });
    try {
      assert.match(
        servedPortOf(served.exec).ok ? "" : (servedPortOf(served.exec) as { message: string }).message,
        /No run is live/,
      );
      const writer = await served.connect("readandwrite");
      served.host.start(served.server.port);
      await writer.waitForEvent(
        "codon.started",
        (e) => e.type === "codon.started" && e.data.codonId === "hold",
      );
      assert.deepEqual(servedPortOf(served.exec), { ok: true, port: served.server.port });
      const screen = collector();
      const errors: string[] = [];
      const attached = attachCommand({
        execution: served.exec,
        color: false,
        width: 100,
        stdout: screen.stream,
        stdin: new PassThrough() as unknown as NodeJS.ReadStream,
        stderr: { write: (text) => errors.push(text) },
      });
      await screen.shows(/> hold HOLD/);
      writer.send("server.shutdown");
      await served.host.ended;
      await served.server.close();
      assert.equal(await attached, 0);
      assert.deepEqual(errors, []);
      assert.match(screen.text(), /✓ a A /);
      assert.match(screen.text(), /\(read-only\)/);
      assert.match(screen.text(), /Run Aborted/);
    } finally {
      await served.remove();
    }
  });

  it("says so when nothing listens on the port", async () => {
    const errors: string[] = [];
    const code = await attachCommand({
      port: 1,
      color: false,
      width: 80,
      stdout: collector().stream,
      stdin: new PassThrough() as unknown as NodeJS.ReadStream,
      stderr: { write: (text) => errors.push(text) },
    });
    assert.equal(code, 1);
    assert.match(errors.join(""), /^✗ Could not attach to ws:\/\/localhost:1: /);
  });
});
