import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { readAll } from "./journal-reader.ts";
import type { JournalReplaced } from "./journal-restore.ts";
import { JournalWriter } from "./journal-writer.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hankweave-journal-replaced-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const info = (message: string) => ({ type: "info" as const, data: { message } });

/** The journal's info messages; throws when a record is unreadable or the hash chain is broken. */
async function messages(path: string): Promise<string[]> {
  const read = await readAll(path);
  assert.deepEqual([read.skipped, read.chainBreaks], [0, []]);
  return read.events.flatMap((e) => (e.type === "info" ? [e.data.message] : []));
}

describe("a journal replaced under its writer", () => {
  it("after `sed -i` (an edited copy renamed over it): every record is put back, the copy kept aside", async () => {
    const path = join(dir, "events.jsonl");
    const notices: JournalReplaced[] = [];
    const writer = JournalWriter.open(path, { onReplaced: (r) => notices.push(r) });
    writer.append(info("one"));
    writer.append(info("two"));
    execFileSync("sed", ["-i", "s/two/TWO/", path]);
    writer.append(info("three"));
    writer.close();
    assert.deepEqual(await messages(path), ["one", "two", "three"]);
    assert.deepEqual(notices, [{ path, keptAs: `${path}.replaced-1` }]);
    assert.match(readFileSync(`${path}.replaced-1`, "utf8"), /TWO/);
    assert.equal(existsSync(`${path}.restoring`), false);
  });

  it("appends made before the path is checked again are put back too, at the latest at the next flush", async () => {
    const path = join(dir, "events.jsonl");
    const notices: JournalReplaced[] = [];
    const writer = JournalWriter.open(path, { onReplaced: (r) => notices.push(r) });
    writer.append(info("one"));
    execFileSync("sed", ["-i", "s/one/ONE/", path]);
    writer.append(info("two"));
    writer.append(info("three"));
    writer.flush();
    assert.deepEqual(notices, [{ path, keptAs: `${path}.replaced-1` }]);
    writer.append(info("four"));
    writer.close();
    assert.deepEqual(await messages(path), ["one", "two", "three", "four"]);
  });

  it("after its directory was removed (the execution was deleted): it writes on, putting nothing back", () => {
    const events = join(dir, "events");
    const path = join(events, "events.jsonl");
    const notices: JournalReplaced[] = [];
    const writer = JournalWriter.open(path, { onReplaced: (r) => notices.push(r) });
    writer.append(info("one"));
    rmSync(events, { recursive: true });
    writer.append(info("two"));
    writer.close();
    assert.deepEqual([notices, existsSync(events)], [[], false]);
  });

  it("after a delete: the file is written again at its path, at the close too", async () => {
    const path = join(dir, "events.jsonl");
    const notices: JournalReplaced[] = [];
    const writer = JournalWriter.open(path, { onReplaced: (r) => notices.push(r) });
    writer.append(info("one"));
    unlinkSync(path);
    writer.close();
    assert.deepEqual(await messages(path), ["one"]);
    assert.deepEqual(notices, [{ path, keptAs: undefined }]);
  });
});
