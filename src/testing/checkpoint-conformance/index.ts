/**
 * The checkpointer conformance suite: one set of cases for every `Checkpointer` (the git store, an
 * in-memory one, any other), run against real temporary directories. See `runCheckpointerConformance`.
 */
export type { ConformanceCase, ConformanceDirs, MakeCheckpointer } from "./checkpoint-fixture.ts";
export { COMMIT_CASES } from "./commit-cases.ts";
export { RESTORE_CASES } from "./restore-cases.ts";
export { RUN_CASES } from "./run-cases.ts";
export { runCheckpointerConformance } from "./run-checkpointer-conformance.ts";
