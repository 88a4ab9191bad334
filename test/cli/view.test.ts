import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { openRunStream, type StreamFrame } from "../../src/server/client/node-stream.ts";
import { startCli } from "../fixtures/hankweave-cli.ts";
import { codon, hankweave, onlyExecution, sandbox, writeHank } from "../workspace/support.ts";

/** Resolves with the first match of `pattern` in what `read` returns, polling; the test's timeout bounds it. */
async function waitFor(read: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = read().match(pattern);
    if (match !== null) return match;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("hankweave view <execution>", { timeout: 60_000 }, () => {
  const sb = sandbox("view");
  after(() => sb.remove());

  it("serves a finished execution read-only: its whole story, its checkpoints and its page; Ctrl-C ends it with 0", async () => {
    const hank = writeHank(join(sb.root, "hank"), [
      codon("a", "@write a.txt a", { checkpointedFiles: ["*.txt"] }),
      codon("b", "@write b.txt b", { checkpointedFiles: ["*.txt"] }),
    ]);
    const ran = await hankweave(sb, [hank, "--headless"]);
    assert.equal(ran.code, 0, ran.stderr);
    const exec = onlyExecution(sb).executionDir;
    const attach = await hankweave(sb, ["--attach", exec]);
    assert.equal(attach.code, 1);
    assert.match(attach.stderr, /No run is live in .*Look at how it went with: hankweave view /);

    let stderr = "";
    const viewing = startCli(["view", exec]);
    viewing.child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [, page] = await waitFor(() => stderr, /Web page: (http:\/\/\S+\/ui\/)/);
    const response = await fetch(page ?? "");
    assert.equal(response.status, 200);
    assert.match(await response.text(), /<html/i);

    const stream = await openRunStream({
      url: (page ?? "").replace(/^http/, "ws").replace(/ui\/$/, ""),
      mode: "readandwrite",
    });
    const frames: StreamFrame[] = [];
    stream.onFrame((frame) => frames.push(frame));
    const completed = () =>
      frames.some(
        (f) =>
          f.kind === "event" &&
          f.event.type === "state.transition" &&
          f.event.data.transitionType === "RunCompleted",
      );
    await waitFor(() => (completed() ? "done" : ""), /done/);
    stream.send("codon.next");
    stream.send("checkpoint.list");
    await waitFor(() => JSON.stringify(frames.filter((f) => f.kind === "unjournaled")), /checkpoint\.list/);
    const replies = frames.filter((f) => f.kind === "unjournaled");
    assert.ok(
      replies.some((f) => f.type === "error" && /read-only/i.test(String(f.data.message))),
      "codon.next is refused: every client of a view is read-only",
    );
    const list = replies.find((f) => f.type === "checkpoint.list");
    assert.deepEqual(
      ((list?.data.checkpoints ?? []) as { codonId: string }[]).map((c) => c.codonId),
      ["a", "b"],
    );
    stream.close();
    viewing.child.kill("SIGINT");
    const end = await viewing.done;
    assert.equal(end.code, 0, end.stderr);
  });
});
