export type { AttributeValue, ReceivedSpan } from "./decode-traces.ts";
export { decodeTraces } from "./decode-traces.ts";
export {
  type OtlpReceiver,
  type OtlpReceiverOptions,
  spanTreeLines,
  startOtlpReceiver,
} from "./otlp-receiver.ts";
