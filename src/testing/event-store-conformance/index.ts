/**
 * The event store conformance suite: one set of cases for every `EventStore` (the journal file, the
 * in-memory store, a database store). See `runEventStoreConformance`.
 */
export { FILE_CASES, REOPEN_CASES } from "./durability-cases.ts";
export { EVENT_STORE_CASES, runEventStoreConformance } from "./run-event-store-conformance.ts";
export type { StoreCase } from "./store-cases.ts";
export { COMMON_CASES } from "./store-cases.ts";
export type { EventStoreTarget, OpenedEventStore, StoreFixture } from "./store-fixture.ts";
export { withStore } from "./store-fixture.ts";
