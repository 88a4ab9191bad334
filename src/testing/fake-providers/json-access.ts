/** Safe reads of untyped JSON (request bodies come from clients we do not control). */

export type JsonRecord = Readonly<Record<string, unknown>>;

export function asRecord(value: unknown): JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonRecord) : {};
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Text of a content field: a string, or the `text` of the `{type:"text"}` parts of an array. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map(asRecord)
    .filter((part) => part.type === "text")
    .map((part) => asString(part.text))
    .join("\n");
}

/** Names of the properties of a JSON schema object. */
export function schemaProperties(schema: unknown): string[] {
  return Object.keys(asRecord(asRecord(schema).properties));
}
