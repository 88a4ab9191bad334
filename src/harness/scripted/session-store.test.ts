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
    return join(dir, "sessions.jsonl");
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps sessions in memory without a file", () => {
    const store = createSessionStore();
    const session = store.create("s1");
    session.contextTokens = 42;
    store.save(session);
    assert.equal(store.get("s1")?.contextTokens, 42);
    assert.equal(createSessionStore().get("s1"), undefined);
  });

  it("brings sessions and their context back from its file after a restart", () => {
    const file = tempFile();
    const first = createSessionStore(file);
    const s1 = first.create("s1");
    s1.contextTokens = 300;
    first.save(s1);
    const s2 = first.create("s2");
    first.save(s2);
    s1.contextTokens = 1200;
    first.save(s1);
    const second = createSessionStore(file);
    assert.deepEqual(second.get("s1"), { id: "s1", contextTokens: 1200 }, "the latest save wins");
    assert.deepEqual(second.get("s2"), { id: "s2", contextTokens: 0 });
    assert.throws(() => second.create("s1"), /issued twice/);
  });

  it("skips a torn last line and keeps appending after it", () => {
    const file = tempFile();
    writeFileSync(file, '{"id":"s1","contextTokens":12}\n{"id":"s2","contextTo');
    const store = createSessionStore(file);
    assert.equal(store.get("s1")?.contextTokens, 12);
    assert.equal(store.get("s2"), undefined);
    const s3 = store.create("s3");
    s3.contextTokens = 7;
    store.save(s3);
    assert.equal(createSessionStore(file).get("s3")?.contextTokens, 7);
  });
});
