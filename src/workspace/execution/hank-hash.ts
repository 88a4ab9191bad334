import { createHash } from "node:crypto";

/**
 * The fingerprint of a hank file, used to tell on resume whether the hank changed since the execution
 * last ran. A hank that parses as JSON is hashed in a canonical form (the parsed value re-serialized
 * without its top-level `$schema`), so adding, removing or retargeting `$schema` and reformatting
 * whitespace do not count as a change; any edit to a field does. Text that does not parse is hashed as
 * raw bytes. The two forms carry different prefixes so they can never collide.
 */
export function hankHashOf(content: Uint8Array | string): string {
  const text = typeof content === "string" ? content : Buffer.from(content).toString("utf8");
  const canonical = canonicalHankText(text);
  if (canonical !== null) return sha256(`hank-json\n${canonical}`);
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return createHash("sha256").update("hank-raw\n").update(bytes).digest("hex");
}

function canonicalHankText(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return null;
  }
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && "$schema" in parsed) {
    return JSON.stringify(Object.fromEntries(Object.entries(parsed).filter(([key]) => key !== "$schema")));
  }
  return JSON.stringify(parsed);
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
