export type { RecordedFileChange, RecordedSession, Recording } from "./recording.ts";
export { sessionKey } from "./recording.ts";
export { createReplayHarness } from "./replay-harness.ts";
