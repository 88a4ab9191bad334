/**
 * A minimal protobuf wire-format reader (varint, 64-bit, length-delimited, 32-bit fields), enough to
 * decode an OTLP `ExportTraceServiceRequest` without a schema compiler. Throws on malformed input: the
 * receiver answers such a request with 400.
 */
export interface WireField {
  readonly field: number;
  /** 0 varint, 1 fixed 64-bit, 2 length-delimited, 5 fixed 32-bit. */
  readonly wireType: number;
  readonly varint?: bigint;
  readonly bytes?: Uint8Array;
}

export function readFields(buffer: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[at++];
      if (byte === undefined) throw new Error("truncated varint");
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
      shift += 7n;
    }
  };
  const take = (length: number): Uint8Array => {
    if (at + length > buffer.length) throw new Error("truncated field");
    const slice = buffer.subarray(at, at + length);
    at += length;
    return slice;
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wireType = key & 7;
    if (wireType === 0) fields.push({ field, wireType, varint: varint() });
    else if (wireType === 1) fields.push({ field, wireType, bytes: take(8) });
    else if (wireType === 2) fields.push({ field, wireType, bytes: take(Number(varint())) });
    else if (wireType === 5) fields.push({ field, wireType, bytes: take(4) });
    else throw new Error(`unsupported wire type ${wireType}`);
  }
  return fields;
}

export function fixed64(bytes: Uint8Array | undefined): bigint {
  if (bytes === undefined) return 0n;
  return Buffer.from(bytes).readBigUInt64LE(0);
}

export function double(bytes: Uint8Array | undefined): number {
  return bytes === undefined ? 0 : Buffer.from(bytes).readDoubleLE(0);
}

export function text(bytes: Uint8Array | undefined): string {
  return bytes === undefined ? "" : Buffer.from(bytes).toString("utf8");
}

export function hex(bytes: Uint8Array | undefined): string {
  return bytes === undefined ? "" : Buffer.from(bytes).toString("hex");
}
