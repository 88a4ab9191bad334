import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { createSessionStore } from "./session-store.ts";

describe("scripted session store", () => {
  const dirs: string[] = [];
  const tempFile = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "hw-scripted-sessions-"));
    dirs.push(dir);
    return join(dir, "sessions.json");
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps sessions in memory without a file", () => {
    const store = createSessionStore();
    store.create("s1").contextTokens = 42;
    store.save();
    assert.equal(store.get("s1")?.contextTokens, 42);
    assert.equal(createSessionStore().get("s1"), undefined);
  });

  it("brings sessions and their context back from its file after a restart", () => {
    const file = tempFile();
    const first = createSessionStore(file);
    first.create("s1").contextTokens = 1200;
    first.save();
    const second = createSessionStore(file);
    assert.deepEqual(second.get("s1"), { id: "s1", contextTokens: 1200 });
    assert.throws(() => second.create("s1"), /issued twice/);
  });

  it("starts empty from a torn file instead of failing", () => {
    const file = tempFile();
    writeFileSync(file, '{"s1": 12');
    assert.equal(createSessionStore(file).get("s1"), undefined);
  });
});
