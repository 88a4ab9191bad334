import assert from "node:assert/strict";
import { it } from "node:test";
import { type KeyFlags, keyAction } from "./keys.ts";
import { initialTuiState } from "./tui-model.ts";

const NONE: KeyFlags = { upArrow: false, downArrow: false, return: false, escape: false, ctrl: false };
const state = { ...initialTuiState(0), rollbackTargets: ["a", "b"] };
const press = (input: string, extra: Partial<Parameters<typeof keyAction>[0]> = {}) =>
  keyAction({ input, key: NONE, readOnly: false, state, menu: undefined, quits: 0, ...extra });

it("n, s and r steer; q asks to stop, then forces; ctrl-c is q", () => {
  assert.deepEqual(press("n").send, { type: "codon.next" });
  assert.deepEqual(press("s").send, { type: "codon.skip" });
  assert.deepEqual(press("r").menu, { choices: ["b", "a"], index: 0 });
  assert.deepEqual(press("q").send, { type: "server.shutdown" });
  assert.deepEqual(press("q", { quits: 1 }).send, { type: "server.force_shutdown" });
  assert.deepEqual(
    keyAction({ input: "c", key: { ...NONE, ctrl: true }, readOnly: false, state, menu: undefined, quits: 0 })
      .send,
    {
      type: "server.shutdown",
    },
  );
  assert.deepEqual(press("x"), { menu: "keep", note: undefined });
});

it("the rollback menu moves, rolls back to after the chosen codon with a restart, and closes on escape", () => {
  const menu = { choices: ["b", "a"], index: 0 };
  const down = keyAction({
    input: "",
    key: { ...NONE, downArrow: true },
    readOnly: false,
    state,
    menu,
    quits: 0,
  });
  assert.deepEqual(down.menu, { choices: ["b", "a"], index: 1 });
  const chosen = keyAction({
    input: "\r",
    key: { ...NONE, return: true },
    readOnly: false,
    state,
    menu: { ...menu, index: 1 },
    quits: 0,
  });
  assert.deepEqual(chosen.send, {
    type: "rollback.toCodon",
    data: { codonId: "a", checkpointType: "completed", autoRestart: true },
  });
  assert.equal(chosen.menu, undefined);
  assert.equal(
    keyAction({ input: "", key: { ...NONE, escape: true }, readOnly: false, state, menu, quits: 0 }).menu,
    undefined,
  );
});

it("a read-only watcher cannot steer and detaches on q", () => {
  assert.equal(press("n", { readOnly: true }).send, undefined);
  assert.match(press("s", { readOnly: true }).note ?? "", /^Read-only/);
  assert.deepEqual(press("q", { readOnly: true }), { detach: true, menu: undefined, note: "Detaching." });
});
