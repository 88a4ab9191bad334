import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { auditJournal, auditMessage } from "./journal-audit.ts";
import { readAll, readSince, readTail } from "./journal-reader.ts";
import { JournalWriter } from "./journal-writer.ts";

let dir = "";
let path = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hankweave-chain-"));
  path = join(dir, "events.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeInfos(count: number): void {
  const writer = JournalWriter.open(path);
  for (let i = 1; i <= count; i++) writer.append({ type: "info", data: { message: `m${i}` } });
  writer.close();
}

const lines = (): string[] => readFileSync(path, "utf8").split("\n").slice(0, -1);
const rewrite = (all: readonly string[]): void => writeFileSync(path, `${all.join("\n")}\n`);
const brokenAt = (read: { chainBreaks: readonly { seq: number | null }[] }) =>
  read.chainBreaks.map((b) => b.seq);

describe("the journal's hash chain", () => {
  it("holds over a journal written, reopened and continued, whichever way it is read", async () => {
    writeInfos(3);
    writeInfos(2);
    assert.deepEqual(brokenAt(await readAll(path)), []);
    assert.deepEqual(brokenAt(readTail(path, 2)), []);
    assert.deepEqual(brokenAt(readSince(path, 1)), []);
    assert.equal((await readAll(path)).events.length, 5);
  });

  it("reports an edited record at the record after it, from a full read and from a tail that reaches it", async () => {
    writeInfos(6);
    const all = lines();
    all[2] = all[2]?.replace('"m3"', '"forged"') ?? "";
    rewrite(all);
    const read = await readAll(path);
    assert.deepEqual(brokenAt(read), [4]);
    assert.match(
      read.chainBreaks[0]?.message ?? "",
      /record 4 does not follow the record before it \(record 3/,
    );
    const edited = read.events[2];
    assert.equal(
      edited?.type === "info" && edited.data.message,
      "forged",
      "the record still reads: the break is reported",
    );
    assert.deepEqual(brokenAt(readSince(path, 2)), [4]);
    assert.deepEqual(brokenAt(readTail(path, 2)), [], "a tail that stops after the edit does not see it");
  });

  it("reports a removed record, an inserted one and a journal cut at the front", async () => {
    writeInfos(5);
    const all = lines();
    rewrite([...all.slice(0, 2), ...all.slice(3)]);
    assert.deepEqual(brokenAt(await readAll(path)), [4]);
    const forged =
      '{"v":1,"id":"x","seq":9,"timestamp":"2025-01-01T00:00:00.000Z","type":"info","data":{"message":"x"}}';
    rewrite([...all.slice(0, 3), forged, ...all.slice(3)]);
    assert.deepEqual(brokenAt(await readAll(path)), [9, 4]);
    rewrite(all.slice(2));
    assert.deepEqual(brokenAt(await readAll(path)), [3]);
    assert.deepEqual(brokenAt(readSince(path, 0)), [3]);
  });

  it("reads a journal written before the chain as before, and chains what a newer writer adds", async () => {
    const old = [1, 2, 3].map(
      (seq) =>
        `{"v":1,"id":"o${seq}","seq":${seq},"timestamp":"2025-01-01T00:00:00.000Z","type":"info","data":{"message":"old"}}`,
    );
    rewrite(old);
    assert.deepEqual(brokenAt(await readAll(path)), []);
    writeInfos(2);
    const read = await readAll(path);
    assert.deepEqual(brokenAt(read), []);
    assert.deepEqual(
      read.events.map((e) => e.seq),
      [1, 2, 3, 4, 5],
    );
    assert.match(lines()[3] ?? "", /,"prev":"[0-9a-f]{16}"}$/);
  });

  it("the background audit finds what a full read finds, and says so in one line", async () => {
    writeInfos(6);
    assert.deepEqual(await auditJournal(path), []);
    assert.equal(auditMessage([], path), undefined);
    const all = lines();
    all[1] = all[1]?.replace('"m2"', '"forged"') ?? "";
    rewrite([...all.slice(0, 4), ...all.slice(5)]);
    const breaks = await auditJournal(path);
    assert.deepEqual(brokenAt({ chainBreaks: breaks }), brokenAt(await readAll(path)));
    assert.deepEqual(brokenAt({ chainBreaks: breaks }), [3, 6]);
    assert.match(
      auditMessage(breaks, path) ?? "",
      /^The journal .*events\.jsonl was changed outside hankweave: record 3/,
    );
    assert.deepEqual(await auditJournal(join(dir, "missing.jsonl")), []);
  });

  it("a torn last line is not a break, and the writer chains on from the last whole line", async () => {
    writeInfos(3);
    appendFileSync(path, '{"v":1,"id":"torn","seq":4');
    assert.deepEqual(brokenAt(await readAll(path)), []);
    writeInfos(1);
    assert.deepEqual(brokenAt(await readAll(path)), []);
  });
});

describe("a journal write that fails", () => {
  it("names the journal in the error, so the fault can say which file (ENOSPC from /dev/full)", () => {
    const full = join(dir, "full.jsonl");
    symlinkSync("/dev/full", full);
    const writer = JournalWriter.open(full);
    assert.throws(
      () => writer.append({ type: "info", data: { message: "x" } }),
      (error: unknown) =>
        error instanceof Error &&
        "code" in error &&
        error.code === "ENOSPC" &&
        "path" in error &&
        error.path === full,
    );
    writer.close();
  });
});
