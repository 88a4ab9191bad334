/** Safe reads of the JSON lines an agent prints (their shape is the agent's, not ours). */

export type JsonRecord = Readonly<Record<string, unknown>>;

export function asRecord(value: unknown): JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonRecord) : {};
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** One JSON object per line; anything else (banners, blank lines, arrays) is undefined. */
export function parseJsonLine(line: string): JsonRecord | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as JsonRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Text of a content field: a string, or the `text` of the text parts of an array. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map(asRecord)
    .filter((part) => part.type === "text")
    .map((part) => asString(part.text) ?? "")
    .join("\n");
}
