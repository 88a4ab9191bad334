import assert from "node:assert/strict";
import { appendFile, readFile } from "node:fs/promises";
import type { JournaledEvent } from "../../journal/index.ts";
import { appendAllOf, type StoreCase } from "./store-cases.ts";
import { appendEach, info, infos } from "./store-fixture.ts";

/** Cases for stores that outlive the process: they run only when the target says it `reopens`. */
const reopen: StoreCase = {
  id: "reopen",
  title: "a reopened store keeps its records and continues seq after the last",
  run: async (fx) => {
    const first = await fx.open();
    const before = appendEach(first.store, infos("m", 3));
    await fx.close(first);
    const second = await fx.open();
    assert.deepEqual(await second.readSince(0), before);
    const next = second.store.append(info("after reopen")) as JournaledEvent;
    assert.equal(next.seq, 4);
    const batch = (appendAllOf(second.store)?.([info("x"), info("y")]) ?? []) as JournaledEvent[];
    if (batch.length > 0)
      assert.deepEqual(
        batch.map((event) => event.seq),
        [5, 6],
      );
    assert.deepEqual(await second.readSince(3), [next, ...batch]);
  },
};

/** What a crash in the middle of a write leaves: a record without its closing LF. */
const TORN_FRAGMENT = '{"v":1,"id":"torn","seq":4,"timestamp":"2025-01-01T00:00:04.000Z","type":"inf';

/** For JSONL file stores (`journalFile`): the framing rule that a record exists only once its LF is written. */
const tornTail: StoreCase = {
  id: "torn-tail",
  title: "a torn last line is ignored by readers and cut off before the next append",
  run: async (fx) => {
    const file = fx.target.journalFile?.(fx.dir);
    assert.ok(file !== undefined);
    const first = await fx.open();
    const written = appendEach(first.store, infos("m", 3));
    await appendFile(file, TORN_FRAGMENT);
    assert.deepEqual(await first.readSince(0), written, "the fragment is not a record");
    await fx.close(first);

    const second = await fx.open();
    assert.deepEqual(await second.readSince(0), written);
    const next = second.store.append(info("after the tear")) as JournaledEvent;
    assert.equal(next.seq, 4, "the torn record was never acknowledged, so its seq is free");
    assert.deepEqual(await second.readSince(0), [...written, next]);
    const lines = (await readFile(file, "utf8")).split("\n");
    assert.equal(lines.length, 5, "four LF-terminated records and nothing after the last LF");
    assert.equal(lines.at(-1), "");
  },
};

export const REOPEN_CASES: readonly StoreCase[] = [reopen];
export const FILE_CASES: readonly StoreCase[] = [tornTail];
