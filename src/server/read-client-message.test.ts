import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readClientMessage } from "./read-client-message.ts";

describe("readClientMessage", () => {
  it("reads a handshake and fills data defaults of commands", () => {
    assert.deepEqual(
      readClientMessage('{"type":"handshake","data":{"mode":"readonly","sendPreviousEvents":true}}'),
      {
        kind: "handshake",
        handshake: { type: "handshake", data: { mode: "readonly", sendPreviousEvents: true } },
      },
    );
    assert.deepEqual(readClientMessage('{"id":"1","type":"rollback.toLastSuccess"}'), {
      kind: "command",
      command: { id: "1", type: "rollback.toLastSuccess", data: { autoRestart: false } },
    });
    assert.deepEqual(readClientMessage('{"id":"1","type":"history.sync","data":{"cursor":5,"limit":2}}'), {
      kind: "command",
      command: { id: "1", type: "history.sync", data: {} },
    });
  });

  it("answers bad JSON, non-objects, unknown types, a missing id and bad data in the reference's words", () => {
    const reply = (text: string) => {
      const read = readClientMessage(text);
      return read.kind === "invalid" ? read.reply : undefined;
    };
    assert.match(reply("{")?.message ?? "", /^Command execution failed: /);
    assert.deepEqual(reply("42"), {
      message: "Invalid command format",
      fatal: false,
      context: "Expected a JSON object {id, type, data}",
    });
    const unknown = reply('{"id":"1","type":"nope"}');
    assert.equal(unknown?.message, "Invalid command format");
    assert.match(
      unknown?.context ?? "",
      /^type: Invalid discriminator value\. Expected 'codon\.start' \| .* \| 'history\.sync' \| 'history\.page'$/,
    );
    assert.equal(reply('{"type":"ping"}')?.context, "id: Invalid input: expected string, received undefined");
    assert.equal(
      reply('{"id":"1","type":"rollback.toCodon","data":{"codonId":"a","checkpointType":"middle"}}')?.context,
      'data.checkpointType: Invalid option: expected one of "start"|"end"|"rig-setup"|"completed"|"error"|"skipped"',
    );
    assert.equal(reply('{"type":"handshake","data":{"mode":"admin"}}')?.message, "Invalid handshake");
  });
});
