import type {
  CodonRecord,
  DataOf,
  EventOf,
  JournaledEvent,
  JournaledType,
  RunState,
} from "../../journal/index.ts";
import { RunStateStore } from "../../journal/index.ts";

/**
 * Where the engine sends its events. Every event goes to the store first (the journal: the truth), then
 * into the run state the engine reads back (a `RunStateStore`, updated in place), then to listeners
 * (progress printer, server broadcast). The engine keeps no other copy of what happened.
 */
/** One event to emit, of any journaled type. */
export type EventDraftOf = {
  [T in JournaledType]: { readonly type: T; readonly data: DataOf<T> };
}[JournaledType];

export interface EventSink {
  emit<T extends JournaledType>(type: T, data: DataOf<T>): EventOf<T>;
  /** Emits events that belong together in one journal write, so a crash keeps all or none of them. */
  emitAll(drafts: readonly EventDraftOf[]): void;
  /**
   * The run state after every event emitted so far (prior runs included when hydrated). Live: the same
   * object changes as events arrive, while the records in it never change (see `RunStateStore`). Read it
   * now; to keep it across events, copy it (`structuredClone`).
   */
  state(): RunState;
  /** The record of one codon execution by runtime id, found through an index. */
  codon(id: string): CodonRecord | undefined;
}

/** Appends one event and returns it with its envelope. `JournalWriter` is one. */
export interface EventStore {
  append<T extends JournaledType>(draft: { readonly type: T; readonly data: DataOf<T> }): EventOf<T>;
  /** One write for several events; stores without it append them one by one. */
  appendAll?(drafts: readonly EventDraftOf[]): EventOf<JournaledType>[];
}

export type EventListener = (event: JournaledEvent, state: RunState) => void;

export interface EventSinkOptions {
  readonly store: EventStore;
  /** The state rebuilt from the journal of earlier runs; empty for a new execution. */
  readonly initialState?: RunState;
  readonly listeners?: readonly EventListener[];
}

export function createEventSink(options: EventSinkOptions): EventSink {
  const store = new RunStateStore(options.initialState);
  const listeners = options.listeners ?? [];
  // Events appended while listeners are being called (a listener that sends a run command, which is
  // journaled at once) wait here, so state and listeners always see events in journal order.
  const backlog: JournaledEvent[] = [];
  let taking = false;
  const deliver = (event: JournaledEvent): void => {
    store.apply(event);
    for (const listener of listeners) listener(event, store.state);
  };
  const drain = (): void => {
    for (let next = backlog.shift(); next !== undefined; next = backlog.shift()) deliver(next);
  };
  /** Delivers `first` (when given) and then the backlog, unless a delivery is already under way. */
  const deliverInOrder = (first: JournaledEvent | undefined): void => {
    if (taking) {
      if (first !== undefined) backlog.push(first);
      return;
    }
    taking = true;
    try {
      if (first !== undefined) deliver(first);
      drain();
    } finally {
      taking = false;
    }
  };
  return {
    emit(type, data) {
      const event = options.store.append({ type, data });
      deliverInOrder(event as JournaledEvent);
      return event;
    },
    emitAll(drafts) {
      const { store } = options;
      const events = store.appendAll ? store.appendAll(drafts) : drafts.map((draft) => store.append(draft));
      backlog.push(...(events as JournaledEvent[]));
      deliverInOrder(undefined);
    },
    state: () => store.state,
    codon: (id) => store.codon(id),
  };
}
