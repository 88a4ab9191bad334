/**
 * Safe reads of the Claude Agent SDK's messages. The adapter reads them as untyped JSON and narrows
 * only the fields it uses, so a newer SDK that adds or reshapes other fields cannot break it, and the
 * SDK's own types never leak into hankweave's public types.
 */

export type JsonRecord = Readonly<Record<string, unknown>>;

const EMPTY: JsonRecord = {};

export function asRecord(value: unknown): JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonRecord) : EMPTY;
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function stringField(record: JsonRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" ? value : undefined;
}

export function numberField(record: JsonRecord, key: string): number | undefined {
  const value = record[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The text of a content field: a string, or the `text` parts of an array of content blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map(asRecord)
    .filter((block) => block.type === "text")
    .map((block) => stringField(block, "text") ?? "")
    .join("\n");
}
