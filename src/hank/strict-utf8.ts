export type StrictUtf8 =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly where: string };

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The text, or where (byte, line, column, offset) its first sequence that is not UTF-8 is. A lenient
 * decode would replace such bytes with U+FFFD, silently changing a prompt or a path.
 */
export function decodeStrictUtf8(bytes: Buffer): StrictUtf8 {
  try {
    return { ok: true, text: STRICT_UTF8.decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const before = bytes.subarray(0, offset).toString("utf8");
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    const byte = `0x${(bytes[offset] ?? 0).toString(16).padStart(2, "0")}`;
    return { ok: false, where: `byte ${byte} at line ${line}, column ${column} (offset ${offset})` };
  }
}

/**
 * Where the first sequence that is not UTF-8 starts: after the longest prefix that is valid but for a
 * sequence cut at its end, that cut sequence's lead byte when there is one, else the byte after it.
 */
function firstInvalidUtf8(bytes: Buffer): number {
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (isValidUtf8Prefix(bytes.subarray(0, middle))) low = middle;
    else high = middle - 1;
  }
  let lead = low;
  while (lead > 0 && low - lead < 3 && ((bytes[lead - 1] ?? 0) & 0xc0) === 0x80) lead--;
  const first = bytes[lead - 1] ?? 0;
  if (lead === 0 || first < 0xc0) return low;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : 2;
  return lead - 1 + length > low ? lead - 1 : low;
}

/** Whether these bytes are valid UTF-8 but for a sequence cut at their end. */
function isValidUtf8Prefix(bytes: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
