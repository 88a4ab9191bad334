import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let yamlModule: typeof Yaml | undefined;

/**
 * `yaml` takes tens of milliseconds to load and most prompts have no frontmatter, so it is loaded
 * synchronously on the first prompt that has one, not at start-up.
 */
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return yamlModule;
}

/**
 * YAML frontmatter of a prompt file: a `---` line at the very start, YAML, and a closing `---` line.
 * It labels the prompt (name, description, tags, version, author) and never configures the run,
 * so it is stripped from the text the agent sees. Without a closing line there is no frontmatter.
 *
 * Values are read with YAML's failsafe schema: every scalar stays a string, so `version: 1.0`
 * keeps its spelling instead of becoming the number 1.
 */
export interface PromptMetadata {
  readonly name?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly version?: string;
  readonly author?: string;
  /** Everything the frontmatter held, unknown fields included. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export const FRONTMATTER_FIELDS = ["name", "description", "tags", "version", "author"] as const;

export type FrontmatterSplit =
  | { readonly kind: "none"; readonly body: string }
  | {
      readonly kind: "parsed";
      readonly body: string;
      readonly metadata: PromptMetadata;
      /** Fields outside FRONTMATTER_FIELDS. */
      readonly unknownFields: readonly string[];
      /** Known fields with the wrong shape (e.g. `tags` not a list of strings), left out of metadata. */
      readonly badFields: readonly string[];
    }
  | { readonly kind: "invalid"; readonly body: string; readonly reason: string };

/** Splits a prompt file's text (BOM already removed) into frontmatter and body. Never throws. */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const lines = text.split("\n");
  if (lines.length < 2 || !isDelimiter(lines[0])) return { kind: "none", body: text };
  const closing = lines.findIndex((line, index) => index > 0 && isDelimiter(line));
  if (closing === -1) return { kind: "none", body: text };
  const yamlText = lines.slice(1, closing).join("\n");
  const body = stripLeadingBlankLines(lines.slice(closing + 1).join("\n"));
  const document = yaml().parseDocument(yamlText, { schema: "failsafe" });
  const firstError = document.errors[0];
  if (firstError !== undefined) {
    const position = firstError.linePos?.[0];
    // The frontmatter starts on the file's second line.
    const where = position ? ` at line ${position.line + 1}, column ${position.col}` : "";
    const reason = firstError.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? "";
    return { kind: "invalid", body, reason: `the frontmatter is not valid YAML${where}: ${reason}` };
  }
  const value: unknown = document.toJS();
  if (value === null || value === undefined) {
    return { kind: "parsed", body, metadata: { raw: {} }, unknownFields: [], badFields: [] };
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    return {
      kind: "invalid",
      body,
      reason: "the frontmatter must be a mapping of fields (name: ..., tags: [...])",
    };
  }
  return { kind: "parsed", body, ...readFields(value as Record<string, unknown>) };
}

function readFields(raw: Record<string, unknown>): {
  metadata: PromptMetadata;
  unknownFields: string[];
  badFields: string[];
} {
  const metadata: { -readonly [K in keyof PromptMetadata]: PromptMetadata[K] } = { raw };
  const badFields: string[] = [];
  for (const field of FRONTMATTER_FIELDS) {
    const value = raw[field];
    if (value === undefined) continue;
    if (field === "tags") {
      const tags = asStringList(value);
      if (tags === undefined) badFields.push(field);
      else metadata.tags = tags;
    } else if (typeof value === "string") metadata[field] = value;
    else badFields.push(field);
  }
  const allowed: ReadonlySet<string> = new Set(FRONTMATTER_FIELDS);
  const unknownFields = Object.keys(raw).filter((key) => !allowed.has(key));
  return { metadata, unknownFields, badFields };
}

function asStringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: unknown[] = value;
  const strings = items.filter((item): item is string => typeof item === "string");
  return strings.length === items.length ? strings : undefined;
}

function isDelimiter(line: string | undefined): boolean {
  return line !== undefined && /^---[ \t]*\r?$/.test(line);
}

function stripLeadingBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\r?\n)+/, "");
}
