import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { JournaledType } from "../events/events.ts";
import { readAll } from "./journal-reader.ts";
import { type EventDraft, JournalWriter } from "./journal-writer.ts";
import { MemoryEventStore } from "./memory-event-store.ts";
import { writtenJsonOf } from "./written-json.ts";

/** An `info` draft, typed as the batch appends take them. */
function info(message: string): EventDraft<JournaledType> {
  return { type: "info", data: { message } } as EventDraft<JournaledType>;
}

describe("the JSON an event was journaled as", () => {
  it("is each written line without its chain link, and JSON.stringify of the object the writer returned", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hankweave-written-json-"));
    try {
      const path = join(dir, "events.jsonl");
      const writer = JournalWriter.open(path);
      const events = [writer.append(info("one")), ...writer.appendAll([info("two"), info("é \u2028 three")])];
      writer.close();
      const lines = readFileSync(path, "utf8").trimEnd().split("\n");
      events.forEach((event, index) => {
        const json = writtenJsonOf(event);
        assert.equal(json, JSON.stringify(event));
        assert.equal(lines[index]?.replace(/,"prev":"[0-9a-f]{16}"\}$/, "}"), json);
      });
      const read = await readAll(path);
      assert.equal(writtenJsonOf(read.events[0] ?? {}), undefined, "an event read back was not written here");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is kept for the latest events only: one written long ago is serialized again by whoever needs it", () => {
    const store = new MemoryEventStore();
    const first = store.append(info("first"));
    const later = Array.from({ length: 100 }, (_, index) => store.append(info(`event ${index}`)));
    assert.equal(writtenJsonOf(first), undefined);
    const newest = later.at(-1);
    assert.ok(newest !== undefined);
    assert.equal(writtenJsonOf(newest), JSON.stringify(newest));
  });

  it("is kept by the memory store too, for the events it stores", () => {
    const store = new MemoryEventStore();
    const events = [store.append(info("a")), ...store.appendAll([info("b"), info("c")])];
    for (const event of events) assert.equal(writtenJsonOf(event), JSON.stringify(event));
  });
});
