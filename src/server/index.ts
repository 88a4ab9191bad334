/**
 * The WebSocket server: the reference protocol over a live execution (`LiveExecution`, a face over
 * `startExecution`), and a small client of that protocol for the TUI, `--attach` and scripts.
 */
export {
  type AccessPolicy,
  type AccessSetup,
  DEFAULT_BIND_HOST,
  isLoopbackHost,
  setUpAccess,
} from "./access.ts";
export {
  DEFAULT_CLIENT_QUEUE,
  HARD_FRAME_LIMIT_BYTES,
  type HankServer,
  MAX_MESSAGE_BYTES,
  type ServerOptions,
  startServer,
} from "./hank-server.ts";
export { HANDSHAKE_HISTORY_LIMIT } from "./journal-history.ts";
export {
  type HostEnd,
  type HostPhase,
  LiveExecution,
  type LiveExecutionOptions,
  type Notice,
} from "./live-execution.ts";
export {
  CLIENT_MODES,
  type ClientMode,
  COMMAND_TYPES,
  type CommandMessage,
  type CommandType,
  MESSAGES,
  REFUSAL_CODES,
} from "./protocol.ts";
export {
  type ConnectOptions,
  connectClient,
  type ProtocolClient,
  type ServerFrame,
} from "./protocol-client.ts";
