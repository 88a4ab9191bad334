import "./outside-ci.ts";
import assert from "node:assert/strict";
import { PassThrough, Writable } from "node:stream";
import { describe, it } from "node:test";
import { attachCommand } from "../../src/tui/index.ts";
import { codon, hankOf, serveHank } from "../server/support.ts";

describe("--attach at the run's end", { timeout: 60_000 }, () => {
  it("exits 0 when the watched run ends, though the run's own server stays open for its TUI", async () => {
    // stayOpen: the server outlives the run, as it does under the run's own TUI.
    const served = await serveHank(hankOf([codon("a", "@say a"), codon("b", "@sleep 800")]), {
      start: false,
      stayOpen: true,
    });
    try {
      let text = "";
      const screen = new Writable({
        write(chunk, _encoding, done) {
          text += String(chunk);
          done();
        },
      }) as unknown as NodeJS.WriteStream;
      const writer = await served.connect("readandwrite");
      served.host.start(served.server.port);
      await writer.waitForEvent("codon.started", (e) => e.type === "codon.started" && e.data.codonId === "b");
      const attached = attachCommand({
        port: served.server.port,
        color: false,
        width: 100,
        stdout: screen,
        stdin: new PassThrough() as unknown as NodeJS.ReadStream,
        stderr: { write: () => undefined },
      });
      assert.equal(await attached, 0, "the watcher exits with the run's end");
      assert.equal(served.host.phase, "ended", "the server is still serving the ended execution");
      assert.match(text, /Run Complete/);
      served.host.shutdown("client request");
      await served.server.close();
    } finally {
      await served.remove();
    }
  });
});
