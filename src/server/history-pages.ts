import { type EventBus, forEachEvent, type JournaledEvent, type Subscription } from "../journal/index.ts";
import { RunViewFold, type RunViewSnapshot } from "../journal/run-view.ts";
import { readSeqRange } from "./journal-range.ts";

/** A view is kept every this many events; the newest page holds between half and one and a half of it. */
export const PAGE_EVENTS = 500;

/** The most events an older page may ask for. */
export const MAX_PAGE_EVENTS = 1000;

export interface HistoryPage {
  /**
   * The run view after the event just before `events`: a client folds `events` and the live events on
   * it. Absent when the page starts at the journal's first event.
   */
  readonly view?: RunViewSnapshot;
  /** Oldest first, contiguous in `seq`. */
  readonly events: readonly JournaledEvent[];
  /** Events older than the page exist (`history.page {beforeSeq}` asks for them). */
  readonly hasOlder: boolean;
}

/** Where the pages come from: the execution's journal and the bus that publishes what it appends. */
export interface PagedHistorySource {
  readonly journalPath: () => string | undefined;
  readonly bus: EventBus;
}

/**
 * History paging (`history.page`): the newest events with the run view just before them, then older
 * pages on request, so a client shows a long run without receiving or folding its whole journal.
 *
 * The server folds the journal once, when the first page is asked for (a run served from its start
 * pays nothing until a client pages), then follows the bus; every `PAGE_EVENTS` events it keeps a copy
 * of the view (`RunViewFold.capture`: arrays copied, records shared), the last two of them. Pages are
 * read from the journal backwards from its end (`readSeqRange`).
 */
export class HistoryPages {
  readonly #source: PagedHistorySource;
  readonly #fold = new RunViewFold();
  #marks: RunViewSnapshot[] = [];
  #ready: Promise<void> | undefined;
  #subscription: Subscription | undefined;

  constructor(source: PagedHistorySource) {
    this.#source = source;
  }

  /** The newest page: events after a kept view up to the latest event, with that view. */
  async newest(): Promise<HistoryPage> {
    await this.#follow();
    const path = this.#source.journalPath();
    const last = this.#fold.lastSeq;
    const mark = this.#markFor(last);
    const from = (mark?.seq ?? 0) + 1;
    const events = path === undefined ? [] : readSeqRange(path, from, last);
    return { ...(mark !== undefined && { view: mark }), events, hasOlder: from > 1 };
  }

  /** Up to `limit` events just before `beforeSeq`, oldest first. */
  before(beforeSeq: number, limit: number): HistoryPage {
    const path = this.#source.journalPath();
    const from = Math.max(1, beforeSeq - Math.min(limit, MAX_PAGE_EVENTS));
    const events = path === undefined ? [] : readSeqRange(path, from, beforeSeq - 1);
    return { events, hasOlder: from > 1 };
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = undefined;
  }

  /** The kept view that leaves the newest page at least half a page of events; none near the start. */
  #markFor(last: number): RunViewSnapshot | undefined {
    for (let i = this.#marks.length - 1; i >= 0; i--) {
      const mark = this.#marks[i];
      if (mark !== undefined && last - mark.seq >= PAGE_EVENTS / 2) return mark;
    }
    return undefined;
  }

  #follow(): Promise<void> {
    this.#ready ??= this.#catchUp();
    return this.#ready;
  }

  async #catchUp(): Promise<void> {
    const path = this.#source.journalPath();
    if (path !== undefined) await forEachEvent(path, (event) => this.#apply(event), { verifyChain: false });
    try {
      this.#subscription = this.#source.bus.subscribe((event) => this.#apply(event), {
        fromSeq: this.#fold.lastSeq,
        name: "history pages",
      });
    } catch {
      // The bus is closed: the execution publishes nothing more, and the journal was read to its end.
    }
  }

  #apply(event: JournaledEvent): void {
    if (!this.#fold.apply(event)) return;
    const lastMark = this.#marks.at(-1)?.seq ?? 0;
    if (event.seq - lastMark < PAGE_EVENTS) return;
    this.#marks = [...this.#marks.slice(-1), this.#fold.capture()];
  }
}
