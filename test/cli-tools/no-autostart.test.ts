import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../../src/cli/run-cli.ts";
import { connectClient, type ServerFrame } from "../../src/server/protocol-client.ts";
import { captureIo } from "./capture-io.ts";

/**
 * `--no-autostart`: the run opens paused and no codon starts until a client sends codon.next.
 * `--idle-timeout`: a client that says nothing for that long is closed (1000, "idle timeout").
 */
describe("--no-autostart and --idle-timeout", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-no-autostart-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const hankDir = join(root, "hank");
  mkdirSync(hankDir);
  const codon = { name: "W", model: "scripted", continuationMode: "fresh", checkpointedFiles: ["*.txt"] };
  const hank = [
    { ...codon, id: "one", promptText: "@write one.txt 1" },
    { ...codon, id: "two", promptText: "@write two.txt 2" },
  ];
  writeFileSync(join(hankDir, "hank.json"), JSON.stringify({ hank }));

  /** Starts `hankweave <hank> -e <exec> --headless --no-autostart ...` in process; resolves its URL. */
  async function serve(execution: string, extra: readonly string[]) {
    let announced: (url: string) => void = () => undefined;
    const served = new Promise<string>((resolve) => {
      announced = resolve;
    });
    const { io, err } = captureIo(root, {}, (soFar) => {
      const url = /WebSocket: (ws:\/\/\S+)/.exec(soFar)?.[1];
      if (url !== undefined) announced(url);
    });
    const args = [hankDir, "-e", join(root, execution), "--headless", "--no-autostart", ...extra];
    const exit = runCli(args, io);
    return { url: await served, exit, err };
  }

  it("waits for codon.next before the first codon", async () => {
    const { url, exit, err } = await serve("paused", []);
    const steering = await connectClient({ url, mode: "readandwrite" });
    const seen: string[] = [];
    const idle = new Promise<unknown>((resolve) => {
      steering.onFrame((frame) => {
        const type = eventType(frame);
        if (type !== undefined) seen.push(type);
        if (frame.kind === "event" && frame.event.type === "server.idle") resolve(frame.event.data.reason);
      });
    });
    assert.equal(await idle, "startup", "the reference's reason for a run waiting before its start");
    assert.equal(seen.includes("codon.started"), false);
    steering.send("codon.next");
    assert.equal(await exit, 0, err());
    assert.equal(seen.filter((type) => type === "codon.started").length, 2);
  });

  it("closes a client that stays silent past --idle-timeout", async () => {
    const { url, exit, err } = await serve("idle", ["--idle-timeout", "1"]);
    const silent = await connectClient({ url, mode: "readonly" });
    assert.deepEqual(await silent.closed, { code: 1000, reason: "idle timeout" });
    const operator = await connectClient({ url, mode: "readandwrite" });
    operator.send("server.shutdown");
    assert.equal(await exit, 0, err());
  });
});

function eventType(frame: ServerFrame): string | undefined {
  return frame.kind === "event" ? frame.event.type : undefined;
}
