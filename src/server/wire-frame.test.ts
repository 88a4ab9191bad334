import assert from "node:assert/strict";
import type { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { payloadOf, textFrameOf, textFrameOfParts } from "./wire-frame.ts";

/** ws's frame parser, which its types do not declare: what a client runs on the bytes it receives. */
type FrameParser = EventEmitter & { write(bytes: Buffer): void };
const { Receiver } = createRequire(import.meta.url)("ws") as {
  Receiver: new (options: { isServer: boolean }) => FrameParser;
};

/** What a WebSocket client reads from the bytes: ws's own frame parser, as a client runs it. */
function received(bytes: Buffer): Promise<{ text: string; isBinary: boolean }> {
  return new Promise((resolve, reject) => {
    const receiver = new Receiver({ isServer: false });
    receiver.on("message", (data: Buffer, isBinary: boolean) => resolve({ text: data.toString(), isBinary }));
    receiver.on("error", reject);
    receiver.write(bytes);
  });
}

describe("textFrameOfParts and textFrameOf", () => {
  for (const length of [0, 125, 126, 65_535, 65_536, 200_000]) {
    it(`frames a ${length}-byte payload as a text message a client reads back whole`, async () => {
      const payload = Buffer.from("é".repeat(Math.floor(length / 2)) + "x".repeat(length % 2));
      const frame = textFrameOfParts([payload]);
      assert.deepEqual(payloadOf(frame), payload);
      assert.deepEqual(await received(frame.bytes), { text: payload.toString(), isBinary: false });
    });

    it(`frames ${length} bytes of text given as a string exactly as it frames their UTF-8 bytes`, () => {
      const text = "é".repeat(Math.floor(length / 2)) + "x".repeat(length % 2);
      assert.deepEqual(textFrameOf(text), textFrameOfParts([Buffer.from(text, "utf8")]));
    });
  }
});
