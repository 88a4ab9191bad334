import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gateCommand } from "./command-gate.ts";
import { COMMAND_TYPES } from "./protocol.ts";

const calm = { mode: "readandwrite", shuttingDown: false, rollingBack: false } as const;

describe("gateCommand", () => {
  it("passes everything for a readandwrite client when nothing is going on", () => {
    assert.ok(COMMAND_TYPES.every((type) => gateCommand(type, calm).kind === "pass"));
    assert.equal(COMMAND_TYPES.length, 15);
  });

  it("lets read-only clients query only: checkpoint.list, ping, history.sync and history.page", () => {
    const passing = COMMAND_TYPES.filter(
      (type) => gateCommand(type, { ...calm, mode: "readonly" }).kind === "pass",
    );
    assert.deepEqual(passing, ["checkpoint.list", "ping", "history.sync", "history.page"]);
    assert.deepEqual(gateCommand("codon.skip", { ...calm, mode: "readonly", codonRunning: "a" }), {
      kind: "refuse",
      reply: {
        message: "Cannot execute state-modifying commands in read-only mode",
        fatal: false,
        context: "Attempted command: codon.skip",
        codon: "a",
        severity: "operation",
        code: "INSUFFICIENT_PERMISSIONS",
      },
    });
  });

  it("drops state-changing commands while shutting down and refuses them during a rollback, shutdown excepted", () => {
    const closing = { ...calm, shuttingDown: true };
    assert.equal(gateCommand("codon.next", closing).kind, "drop");
    assert.equal(gateCommand("server.force_shutdown", closing).kind, "pass");
    const rolling = { ...calm, rollingBack: true };
    const refused = gateCommand("ping.broadcast", rolling);
    assert.equal(refused.kind === "refuse" && refused.reply.code, "ROLLBACK_IN_PROGRESS");
    assert.equal(gateCommand("server.shutdown", rolling).kind, "pass");
    assert.equal(gateCommand("history.sync", { ...rolling, mode: "readonly" }).kind, "pass");
  });
});
