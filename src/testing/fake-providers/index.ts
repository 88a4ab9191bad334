/**
 * Fake provider servers for offline harness tests (README.md beside this file): an Anthropic Messages
 * API and an OpenAI Chat Completions API on 127.0.0.1, answering from a script.
 */
export type {
  FakeAnswer,
  FakeHttpFault,
  FakeProviderServer,
  FakeReply,
  FakeRequestView,
  FakeScript,
  FakeServerOptions,
  FakeStreamFault,
  FakeTool,
  FakeToolCall,
  FakeToolResult,
  FakeUsage,
  RecordedRequest,
} from "./fake-types.ts";
export {
  DEFAULT_MARKER_CONTENT,
  findMarkers,
  type Marker,
  type MarkerScriptOptions,
  markerScript,
} from "./marker-script.ts";
export { SCRIPT_EXHAUSTED } from "./pick-reply.ts";
export { resolveToolName, splitPieces } from "./plan-answer.ts";
export { startFakeAnthropic } from "./start-fake-anthropic.ts";
export { startFakeOpenAI } from "./start-fake-openai.ts";
