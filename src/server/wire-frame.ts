/**
 * A WebSocket text frame built once and written as it is to every client's socket: RFC 6455's header
 * for a final, unmasked text frame (servers never mask), then the payload. Ten clients of one event
 * share one buffer, where `ws.send` would build a header and queue two writes per client.
 */
export interface WireFrame {
  /** Header and payload, contiguous. */
  readonly bytes: Buffer;
  readonly headerLength: number;
}

/** FIN set, opcode 1 (text). */
const FIN_TEXT = 0x81;

/** The text frame of the parts' bytes one after another, copied once, straight into the frame. */
export function textFrameOfParts(parts: readonly Buffer[]): WireFrame {
  let length = 0;
  for (const part of parts) length += part.length;
  const frame = allocateFrame(length);
  let at = frame.headerLength;
  for (const part of parts) at += part.copy(frame.bytes, at);
  return frame;
}

/** The text frame of `text`, encoded as UTF-8 straight into the frame's buffer (one allocation). */
export function textFrameOf(text: string): WireFrame {
  const frame = allocateFrame(Buffer.byteLength(text, "utf8"));
  frame.bytes.write(text, frame.headerLength, "utf8");
  return frame;
}

/** A frame's buffer with its header written and room for a payload of `length` bytes after it. */
function allocateFrame(length: number): WireFrame {
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const bytes = Buffer.allocUnsafe(headerLength + length);
  bytes[0] = FIN_TEXT;
  if (headerLength === 2) bytes[1] = length;
  else if (headerLength === 4) {
    bytes[1] = 126;
    bytes.writeUInt16BE(length, 2);
  } else {
    bytes[1] = 127;
    bytes.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    bytes.writeUInt32BE(length >>> 0, 6);
  }
  return { bytes, headerLength };
}

/** The payload of a frame built here (a view, no copy). */
export function payloadOf(frame: WireFrame): Buffer {
  return frame.bytes.subarray(frame.headerLength);
}
