/**
 * `hankweave/protocol`: clients of a run's WebSocket protocol (docs/server.md). `openRunStream` is
 * the client the TUI, `--attach` and the web page use: history then live, in `seq` order, each event
 * once, with reconnection. `connectClient` is the wire-level client: every frame as it arrives, for
 * programs (and tests) that speak the protocol themselves.
 */

export {
  openRunStream,
  type RunStream,
  type RunStreamOptions,
  type StreamFrame,
} from "../server/client/node-stream.ts";
export {
  openProtocolStream,
  type ProtocolStream,
  type ProtocolStreamOptions,
  type ReplyFrame,
  type SocketLike,
  type StreamStatus,
} from "../server/client/protocol-stream.ts";
export type {
  CommandType,
  HostEnd,
  LiveExecutionOptions,
  ProtocolClient,
  ServerFrame,
} from "../server/index.ts";
export { connectClient } from "../server/index.ts";
