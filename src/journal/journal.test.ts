import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { SAMPLE_DATA } from "../events/event-samples.ts";
import type { JournaledEvent, JournaledType } from "../events/events.ts";
import { JournalError } from "./journal-error.ts";
import { forEachEvent, readAll, readSince, readTail } from "./journal-reader.ts";
import { type EventDraft, JournalWriter, type JournalWriterOptions } from "./journal-writer.ts";
import { chainedLine, lineHash } from "./record-chain.ts";

/** The chain holds over what was read. */
const intact = { chainBreaks: [] };

let dir = "";
let path = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hankweave-journal-"));
  path = join(dir, ".hankweave", "events", "events.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A writer with a fake clock (one second per event) and ids `e1`, `e2`, ... */
function openWriter(options: JournalWriterOptions = {}, start = 0): JournalWriter {
  let tick = start;
  return JournalWriter.open(path, {
    now: () => new Date(Date.UTC(2025, 0, 1) + tick * 1000),
    newId: () => `e${++tick}`,
    ...options,
  });
}

function info(message: string): EventDraft<"info"> {
  return { type: "info", data: { message } };
}

function writeInfos(writer: JournalWriter, count: number, prefix = "m"): JournaledEvent[] {
  return Array.from({ length: count }, (_, i) => writer.append(info(`${prefix}${i + 1}`)));
}

describe("journal writer and reader", () => {
  it("round-trips events as one LF-terminated JSON record per line", async () => {
    const writer = openWriter();
    const started = writer.append({ type: "codon.started", data: SAMPLE_DATA["codon.started"] });
    const usage = writer.append({ type: "token.usage", data: SAMPLE_DATA["token.usage"] });
    writer.close();
    assert.deepEqual(started, {
      v: 1,
      id: "e1",
      seq: 1,
      timestamp: "2025-01-01T00:00:01.000Z",
      type: "codon.started",
      data: SAMPLE_DATA["codon.started"],
    });
    const text = readFileSync(path, "utf8");
    const first = JSON.stringify(started);
    assert.equal(text, `${first}\n${chainedLine(JSON.stringify(usage), lineHash(first))}\n`);
    assert.deepEqual(await readAll(path, { validate: true }), {
      events: [started, usage],
      skipped: 0,
      torn: false,
      ...intact,
    });
  });

  it("round-trips every journaled type with validation on both sides", async () => {
    const writer = openWriter({ validate: true });
    const types = Object.keys(SAMPLE_DATA).filter(
      (t) => !["server.ready", "pong", "history.batch", "incomplete.codon"].includes(t),
    );
    const written = (types as JournaledType[]).map((type) =>
      writer.append({ type, data: SAMPLE_DATA[type] } as EventDraft<JournaledType>),
    );
    writer.close();
    const read = await readAll(path, { validate: true });
    assert.equal(read.events.length, 33);
    assert.deepEqual(read, { events: written, skipped: 0, torn: false, ...intact });
  });

  it("keeps the given id and timestamp", () => {
    const writer = openWriter();
    const event = writer.append({ ...info("x"), id: "mine", timestamp: "2024-05-05T05:05:05.000Z" });
    writer.close();
    assert.deepEqual([event.id, event.timestamp, event.seq], ["mine", "2024-05-05T05:05:05.000Z", 1]);
  });

  it("continues seq after reopening", async () => {
    const first = openWriter();
    writeInfos(first, 3);
    first.close();
    const second = openWriter({}, 100);
    assert.deepEqual(second.opening, { repairedBytes: 0, lastSeq: 3 });
    const next = second.append(info("after reopen"));
    second.close();
    assert.equal(next.seq, 4);
    const { events } = await readAll(path);
    assert.deepEqual(
      events.map((e) => e.seq),
      [1, 2, 3, 4],
    );
  });

  it("durable mode appends and flushes the same records", async () => {
    const writer = openWriter({ durable: true });
    const written = writeInfos(writer, 3);
    writer.flush();
    writer.close();
    assert.deepEqual((await readAll(path)).events, written);
  });

  it("tolerates a torn last line when reading, and the writer cuts it off before appending", async () => {
    const writer = openWriter();
    const written = writeInfos(writer, 3);
    writer.close();
    const sizeBefore = statSync(path).size;
    const fragment = '{"v":1,"id":"e4","seq":4,"timestamp":"2025-01-01T00:00:04.000Z","type":"inf';
    appendFileSync(path, fragment);

    assert.deepEqual(await readAll(path), { events: written, skipped: 0, torn: true, ...intact });
    assert.deepEqual(readTail(path, 2), { events: written.slice(1), skipped: 0, torn: true, ...intact });

    const reopened = openWriter({}, 10);
    assert.deepEqual(reopened.opening, { repairedBytes: fragment.length, lastSeq: 3 });
    assert.equal(statSync(path).size, sizeBefore);
    const next = reopened.append(info("after repair"));
    reopened.close();
    assert.equal(next.seq, 4);
    assert.deepEqual(await readAll(path), { events: [...written, next], skipped: 0, torn: false, ...intact });
  });

  it("skips and counts corrupt lines in the middle", async () => {
    const writer = openWriter();
    const first = writeInfos(writer, 2, "a");
    writer.close();
    appendFileSync(
      path,
      'not json\n\n{"v":2,"seq":9}\n{"v":1,"id":"x","seq":3,"timestamp":"t","type":"pong","data":{}}\n',
    );
    const again = openWriter({}, 50);
    assert.equal(again.opening.lastSeq, 2);
    const second = writeInfos(again, 2, "b");
    again.close();

    const all = [...first, ...second];
    // The four foreign lines carry no hash link after chained records: the chain reports each of them.
    const breaks = (read: { chainBreaks: readonly { seq: number | null }[] }) =>
      read.chainBreaks.map((b) => b.seq);
    const read = await readAll(path);
    assert.deepEqual(
      { ...read, chainBreaks: breaks(read) },
      {
        events: all,
        skipped: 4,
        torn: false,
        chainBreaks: [null, null, null, null],
      },
    );
    const tail = readTail(path, 3);
    assert.deepEqual(
      { ...tail, chainBreaks: breaks(tail) },
      {
        events: all.slice(1),
        skipped: 4,
        torn: false,
        chainBreaks: [null, null, null, null],
      },
    );
    assert.deepEqual(readTail(path, 1), { events: all.slice(3), skipped: 0, torn: false, ...intact });
    const seen: number[] = [];
    const scanned = await forEachEvent(path, (e) => seen.push(e.seq));
    assert.deepEqual(
      [scanned.count, scanned.skipped, scanned.torn, breaks(scanned)],
      [4, 4, false, [null, null, null, null]],
    );
    assert.deepEqual(seen, [1, 2, 3, 4]);
  });

  it("skips records with a bad payload only when asked to validate", async () => {
    const writer = openWriter();
    const good = writer.append(info("ok"));
    writer.close();
    const bad = {
      v: 1,
      id: "z",
      seq: 2,
      timestamp: "2025-01-01T00:00:00.000Z",
      type: "info",
      data: { msg: "x" },
    };
    appendFileSync(path, `${JSON.stringify(bad)}\n`);
    assert.equal((await readAll(path)).events.length, 2);
    const unchained = (read: object) => ({ ...read, chainBreaks: [] });
    assert.deepEqual(unchained(await readAll(path, { validate: true })), {
      events: [good],
      skipped: 1,
      torn: false,
      ...intact,
    });
    assert.deepEqual(unchained(readTail(path, 5, { validate: true })), {
      events: [good],
      skipped: 1,
      torn: false,
      ...intact,
    });
  });

  it("reads the last 50 of 20,000 events, across lines longer than a 64 KiB chunk", async () => {
    const writer = openWriter();
    const big = "x".repeat(150_000);
    for (let i = 1; i <= 20_000; i++) {
      const message = i % 4999 === 0 || i === 19_990 ? `${big}${i}` : `message ${i}`;
      writer.append(info(message));
    }
    writer.close();
    const all = (await readAll(path)).events;
    assert.equal(all.length, 20_000);
    const tail = readTail(path, 50);
    assert.deepEqual(tail, { events: all.slice(-50), skipped: 0, torn: false, ...intact });
    assert.equal(tail.events[0]?.seq, 19_951);
    assert.deepEqual(readTail(path, 5000).events, all.slice(-5000));
  });

  it("returns the whole journal when asked for more than it holds", () => {
    const writer = openWriter();
    const written = writeInfos(writer, 3);
    writer.close();
    assert.deepEqual(readTail(path, 10), { events: written, skipped: 0, torn: false, ...intact });
    assert.deepEqual(readTail(path, 0), { events: [], skipped: 0, torn: false, ...intact });
  });

  it("reads the events after a seq, with the record at that seq as boundary", () => {
    const writer = openWriter();
    const written = writeInfos(writer, 6);
    writer.close();
    const since = readSince(path, 4);
    assert.deepEqual(since.events, written.slice(4));
    assert.deepEqual(since.boundary, written[3]);
    assert.deepEqual(readSince(path, 0).events, written);
    assert.equal(readSince(path, 0).boundary, null);
    assert.deepEqual(readSince(path, 6).events, []);
  });

  it("reads a missing journal as empty", async () => {
    assert.deepEqual(await readAll(join(dir, "none.jsonl")), {
      events: [],
      skipped: 0,
      torn: false,
      ...intact,
    });
    assert.deepEqual(readTail(join(dir, "none.jsonl"), 5), {
      events: [],
      skipped: 0,
      torn: false,
      ...intact,
    });
    assert.deepEqual(readSince(join(dir, "none.jsonl"), 5), {
      events: [],
      skipped: 0,
      torn: false,
      boundary: null,
      ...intact,
    });
  });

  it("reads a journal that is only a torn fragment", async () => {
    const writer = openWriter();
    writer.close();
    writeFileSync(path, '{"v":1,"id"');
    assert.deepEqual(await readAll(path), { events: [], skipped: 0, torn: true, ...intact });
    assert.deepEqual(readTail(path, 5), { events: [], skipped: 0, torn: true, ...intact });
    const reopened = openWriter();
    assert.deepEqual(reopened.opening, { repairedBytes: 11, lastSeq: 0 });
    assert.equal(reopened.append(info("first")).seq, 1);
    reopened.close();
  });

  it("refuses connection events, invalid events when validating, and appends after close", () => {
    const writer = openWriter({ validate: true });
    const pong = { type: "pong", data: SAMPLE_DATA.pong } as unknown as EventDraft<"info">;
    assert.throws(
      () => writer.append(pong),
      (e: unknown) => e instanceof JournalError && e.code === "connection-event",
    );
    const bad = { type: "info", data: { text: "x" } } as unknown as EventDraft<"info">;
    assert.throws(
      () => writer.append(bad),
      (e: unknown) => e instanceof JournalError && e.code === "invalid-event",
    );
    assert.equal(writer.lastSeq, 0);
    writer.close();
    writer.close();
    assert.throws(
      () => writer.append(info("late")),
      (e: unknown) => e instanceof JournalError && e.code === "closed",
    );
    assert.equal(readFileSync(path, "utf8"), "");
  });

  it("frames by LF only: a bare carriage return inside a record is data", async () => {
    const writer = openWriter();
    const event = writer.append(info("line one\r\nline two\rthree"));
    writer.close();
    const raw =
      '{"v":1,\r"id":"cr","seq":2,"timestamp":"2025-01-01T00:00:00.000Z","type":"info","data":{"message":"m"}}';
    appendFileSync(path, `${raw}\n`);
    const read = await readAll(path, { validate: true });
    assert.deepEqual(
      read.events.map((e) => e.id),
      [event.id, "cr"],
    );
    assert.equal(read.skipped, 0);
    assert.deepEqual(
      readTail(path, 2).events.map((e) => e.id),
      [event.id, "cr"],
    );
  });
});
