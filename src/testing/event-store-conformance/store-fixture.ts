import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventDraftOf, EventStore } from "../../engine/index.ts";
import type { JournaledEvent } from "../../journal/index.ts";

/** A store the suite opened, with the reads and the release it needs. */
export interface OpenedEventStore {
  readonly store: EventStore;
  /** The stored events with seq above `afterSeq`, oldest first, as any reader of the store sees them. */
  readSince(afterSeq: number): readonly JournaledEvent[] | Promise<readonly JournaledEvent[]>;
  /** Releases the store (closes its files). The suite calls it once per opened store. */
  close(): void | Promise<void>;
}

/** An implementation under test. */
export interface EventStoreTarget {
  /**
   * Opens the store kept under `dir`, an empty temporary directory of its own for each test (removed
   * afterwards). When `reopens` is true, the suite closes the store and opens `dir` again.
   */
  open(dir: string): OpenedEventStore | Promise<OpenedEventStore>;
  /** A store opened again on the same `dir` holds what was appended before (a journal file, a database). */
  readonly reopens?: boolean;
  /** For a JSONL file store: its file under `dir`, so the suite can leave a torn last line in it. */
  readonly journalFile?: (dir: string) => string;
  /** Cases this store is known to fail, by case id, with the reason: they run as `todo`. */
  readonly limitations?: { readonly [caseId: string]: string };
}

/** What a case works with: its temporary directory and a way to open the store in it. */
export interface StoreFixture {
  readonly dir: string;
  readonly target: EventStoreTarget;
  open(): Promise<OpenedEventStore>;
  /** Closes a store before the test ends (to reopen it); the fixture will not close it again. */
  close(opened: OpenedEventStore): Promise<void>;
}

/** Runs `body` against a fresh temporary directory; closes whatever it left open and removes the directory. */
export async function withStore(
  target: EventStoreTarget,
  body: (fixture: StoreFixture) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "hankweave-event-store-"));
  const open = new Set<OpenedEventStore>();
  const fixture: StoreFixture = {
    dir,
    target,
    async open() {
      const opened = await target.open(dir);
      open.add(opened);
      return opened;
    },
    async close(opened) {
      if (open.delete(opened)) await opened.close();
    },
  };
  try {
    await body(fixture);
  } finally {
    for (const opened of open) await opened.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function info(message: string): EventDraftOf {
  return { type: "info", data: { message } };
}

export function infos(prefix: string, count: number): EventDraftOf[] {
  return Array.from({ length: count }, (_, index) => info(`${prefix}${index + 1}`));
}

/** A connection event dressed as a draft: every store must refuse it, since it is never journaled. */
export function connectionDraft(): EventDraftOf {
  const pong = { type: "pong", data: { message: "pong", timestamp: "2025-01-01T00:00:00.000Z" } };
  return pong as unknown as EventDraftOf;
}

/** Appends drafts one at a time, in order. */
export function appendEach(store: EventStore, drafts: readonly EventDraftOf[]): JournaledEvent[] {
  return drafts.map((draft) => store.append(draft) as JournaledEvent);
}
