import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chainedLine, lineHash } from "../../journal/record-chain.ts";
import { DIET_MIN_BODY_BYTES, dietLines, restoreLines } from "./diet-transform.ts";

/** A chained journal of records whose `data` are the given objects. */
function journal(datas: readonly Record<string, unknown>[]): string[] {
  const lines: string[] = [];
  let previous: string | undefined;
  datas.forEach((data, index) => {
    const json = JSON.stringify({ v: 1, id: `e${index}`, seq: index + 1, type: "assistant.action", data });
    const line = chainedLine(json, previous);
    lines.push(line);
    previous = lineHash(line);
  });
  return lines;
}

describe("dietLines", () => {
  const answer = "The notes describe the build. ".repeat(20);
  const short = "x".repeat(DIET_MIN_BODY_BYTES - 1);
  const lines = journal([
    { action: "message", content: answer },
    { result: { text: answer }, note: short },
  ]);
  const dieted = dietLines(lines);

  it("moves every body at the threshold or above, keeps shorter ones inline", () => {
    assert.ok(Buffer.byteLength(answer) >= DIET_MIN_BODY_BYTES);
    assert.deepEqual(
      dieted.moved.map((entry) => [entry.seq, entry.path]),
      [
        [1, ["content"]],
        [2, ["result", "text"]],
      ],
    );
    assert.equal((JSON.parse(dieted.lines[1] ?? "{}") as { data: { note: string } }).data.note, short);
  });

  it("stores a body that appears twice (an answer and the codon's result) once", () => {
    assert.equal(dieted.bodies.size, 1);
    assert.equal(dieted.moved[0]?.sha256, dieted.moved[1]?.sha256);
  });

  it("leaves a readable prefix and names the body and the way back", () => {
    const content = (JSON.parse(dieted.lines[0] ?? "{}") as { data: { content: string } }).data.content;
    assert.ok(content.startsWith(answer.slice(0, 64)));
    assert.match(content, /… \[\d+ bytes in cas\/[0-9a-f]{16}; hankweave --restore-journal\]$/);
    assert.ok(dieted.lines.join("\n").length < lines.join("\n").length);
  });

  it("restores the original lines byte for byte", () => {
    const restored = restoreLines(dieted.lines, dieted.moved, dieted.unchained, (sha) => {
      const body = dieted.bodies.get(sha);
      if (body === undefined) throw new Error(`no body ${sha}`);
      return body;
    });
    assert.deepEqual(restored, lines);
  });
});
