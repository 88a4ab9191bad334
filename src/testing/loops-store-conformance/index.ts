/**
 * The loop store conformance suite: one set of cases for every `LoopStore` (SQLite now, PostgreSQL
 * next). See `runLoopStoreConformance`.
 */
export { LOOP_STORE_CASES, runLoopStoreConformance } from "./run-loop-store-conformance.ts";
export type { LoopStoreCase, LoopStoreFixture } from "./store-cases.ts";
export type { LoopStoreTarget } from "./store-fixture.ts";
