import fs from "node:fs";
import path from "node:path";
import { error, type JsonPath, type ValidationIssue, warning } from "./issues.ts";
import { type PromptMetadata, splitFrontmatter } from "./prompt-frontmatter.ts";
import { countLines, stripHtmlComments } from "./prompt-text.ts";
import { checkRef } from "./ref-check.ts";
import { quotePath, REF_HINTS } from "./ref-rules.ts";

export { FRONTMATTER_FIELDS, type PromptMetadata, splitFrontmatter } from "./prompt-frontmatter.ts";
export {
  applyTemplateVariables,
  countLines,
  loopTemplateValues,
  stripHtmlComments,
  TEMPLATE_VARIABLES,
} from "./prompt-text.ts";

/**
 * Reads the prompt files a field names (promptFile, appendSystemPromptFile, globalSystemPromptFile):
 * each through the strict ref contract, as UTF-8, with its YAML frontmatter and HTML comments
 * stripped; the files are joined with one blank line. Problems and warnings are issues; user input
 * never makes this throw.
 */
export interface PromptReadOptions {
  /** The field name used in messages. Default `promptFile`. */
  readonly field?: string;
  /** JSON path of the field; issues get it, plus the index when the field is a list. Default `[field]`. */
  readonly path?: JsonPath;
  /** A hank-relative directory the refs are relative to (a sentinel config's folder). */
  readonly base?: string;
  /** Prompt files the caller holds in memory (see `HeldPrompts`). */
  readonly held?: HeldPrompts;
}

/**
 * Prompt files held in memory, by ref as the hank names them: the text such a file would hold, used
 * instead of reading it (undefined: read the file). Everything after the read (decoding, frontmatter,
 * comments, warnings) is the same. A transient `loop()` hands its step inputs this way; a hank file
 * never does.
 */
export type HeldPrompts = (ref: string) => string | undefined;

export interface PromptFileInfo {
  readonly ref: string;
  readonly absolutePath: string;
  readonly bytes: number;
  /** Lines of this file's text after stripping. */
  readonly lines: number;
  readonly metadata?: PromptMetadata;
}

export type PromptRead =
  | {
      readonly ok: true;
      readonly text: string;
      readonly files: readonly PromptFileInfo[];
      readonly lines: number;
      /** The first file's frontmatter, when it has one. */
      readonly metadata?: PromptMetadata;
      readonly warnings: readonly ValidationIssue[];
    }
  | {
      readonly ok: false;
      readonly problems: readonly ValidationIssue[];
      readonly warnings: readonly ValidationIssue[];
    };

/** Prompt files larger than this draw a warning. */
export const PROMPT_FILE_WARN_BYTES = 1024 * 1024;

export function readPromptFiles(
  hankDir: string,
  refs: string | readonly string[],
  options: PromptReadOptions = {},
): PromptRead {
  const field = options.field ?? "promptFile";
  const basePath = options.path ?? [field];
  const list = typeof refs === "string" ? [refs] : refs;
  const problems: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  if (list.length === 0) {
    const hint = 'Name at least one file, e.g. "prompts/main.md".';
    return {
      ok: false,
      problems: [error("prompt-file-none", basePath, `${field} names no file`, hint)],
      warnings,
    };
  }
  const files: PromptFileInfo[] = [];
  const bodies: string[] = [];
  for (const [index, ref] of list.entries()) {
    const where = { field, ref, path: typeof refs === "string" ? basePath : [...basePath, index] };
    const read = readOne(hankDir, where, options, { problems, warnings });
    if (read === null) continue;
    files.push(read.info);
    if (read.body.trim() !== "") bodies.push(read.body);
  }
  if (problems.length > 0) return { ok: false, problems, warnings };
  const text = bodies.join("\n\n");
  const metadata = files[0]?.metadata;
  const base = { ok: true as const, text, files, lines: countLines(text), warnings };
  return metadata === undefined ? base : { ...base, metadata };
}

type Where = { readonly field: string; readonly ref: string; readonly path: JsonPath };
type Sink = { readonly problems: ValidationIssue[]; readonly warnings: ValidationIssue[] };

/** Reads, decodes and strips one file; pushes its issues; null when it cannot be used. */
function readOne(
  hankDir: string,
  where: Where,
  options: PromptReadOptions,
  sink: Sink,
): { info: PromptFileInfo; body: string } | null {
  const subject = `${where.field} ${quotePath(where.ref)}`;
  const held = options.base === undefined ? options.held?.(where.ref) : undefined;
  const read =
    held === undefined
      ? readText(hankDir, where, options.base, sink, subject)
      : heldText(hankDir, where, held);
  if (read === null) return null;
  const { file, text, bytes } = read;
  const note = (issue: ValidationIssue) => sink.warnings.push({ ...issue, file });
  if (bytes > PROMPT_FILE_WARN_BYTES) {
    const message = `${subject} is larger than 1 MB (${bytes} bytes)`;
    const hint =
      "A prompt this large fills much of the context window; put bulk data in files the agent reads.";
    note(warning("prompt-file-large", where.path, message, hint));
  }
  for (const issue of read.decodeIssues) note(issue);
  const body = stripPrompt(text, where, subject, sink, file);
  if (body === null) return null;
  if (body.text.trim() === "") {
    const hint = "Write the prompt into the file, or stop naming it.";
    note(warning("prompt-file-empty", where.path, `${subject} is empty`, hint));
  }
  const info = { ref: where.ref, absolutePath: file, bytes, lines: countLines(body.text) };
  return { info: body.metadata === undefined ? info : { ...info, metadata: body.metadata }, body: body.text };
}

/** A prompt file's text: where it is, its size in bytes, and the warnings decoding it drew. */
interface PromptText {
  readonly file: string;
  readonly text: string;
  readonly bytes: number;
  readonly decodeIssues: readonly ValidationIssue[];
}

/** A file read from disk and decoded; null (with a problem pushed) when it cannot be read. */
function readText(
  hankDir: string,
  where: Where,
  base: string | undefined,
  sink: Sink,
  subject: string,
): PromptText | null {
  const read = readBytes(hankDir, where, base, sink);
  if (read === null) return null;
  const decodeIssues: ValidationIssue[] = [];
  const text = decode(read.buffer, where, subject, (issue) => decodeIssues.push(issue));
  return { file: read.file, text, bytes: read.buffer.byteLength, decodeIssues };
}

/**
 * A held file: the text that writing it as UTF-8 and reading it back would give (lone surrogates
 * become U+FFFD, as the encoder makes them; a leading BOM goes, as the decoder drops it, and then
 * `decode` drops one more), without the round trip, which a `loop()` step would pay on every start.
 */
function heldText(hankDir: string, where: Where, held: string): PromptText {
  const text = held.toWellFormed();
  return {
    file: path.resolve(hankDir, where.ref),
    text: withoutBom(withoutBom(text)),
    bytes: Buffer.byteLength(text, "utf8"),
    decodeIssues: [],
  };
}

function withoutBom(text: string): string {
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** The ref checked against the contract, then read; null (with a problem pushed) when either fails. */
function readBytes(
  hankDir: string,
  where: Where,
  base: string | undefined,
  sink: Sink,
): { file: string; buffer: Buffer } | null {
  const checked = checkRef(hankDir, where.ref, "file", base === undefined ? {} : { base });
  if (!checked.ok) {
    const message = `${where.field} ${checked.message}`;
    const issue = error(`ref-${checked.rule}`, where.path, message, REF_HINTS[checked.rule]);
    sink.problems.push(checked.absolutePath === undefined ? issue : { ...issue, file: checked.absolutePath });
    return null;
  }
  const file = checked.absolutePath;
  try {
    return { file, buffer: fs.readFileSync(file) };
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    const message = `${where.field} ${quotePath(where.ref)} is not readable: ${reason}`;
    sink.problems.push({ ...error("ref-unreadable", where.path, message, REF_HINTS.unreadable), file });
    return null;
  }
}

/** Throws on invalid UTF-8; shared, since a decode without `stream` keeps no state between calls. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 without a BOM; invalid bytes are replaced and draw a warning. */
function decode(
  buffer: Buffer,
  where: Where,
  subject: string,
  note: (issue: ValidationIssue) => void,
): string {
  let text: string;
  try {
    text = STRICT_UTF8.decode(buffer);
  } catch {
    note(
      warning(
        "prompt-file-not-utf8",
        where.path,
        `${subject} is not valid UTF-8 text; invalid bytes were replaced`,
        "Save the file as UTF-8.",
      ),
    );
    text = buffer.toString("utf8");
  }
  return withoutBom(text);
}

/** Frontmatter, then comments, then trailing whitespace; null when the frontmatter is broken. */
function stripPrompt(
  raw: string,
  where: Where,
  subject: string,
  sink: Sink,
  file: string,
): { text: string; metadata?: PromptMetadata } | null {
  const split = splitFrontmatter(raw);
  if (split.kind === "invalid") {
    const hint = "Fix the YAML between the --- lines, or remove the frontmatter.";
    sink.problems.push({
      ...error("prompt-frontmatter-invalid", where.path, `${subject}: ${split.reason}`, hint),
      file,
    });
    return null;
  }
  const text = stripHtmlComments(split.body).trimEnd();
  if (split.kind === "none") return { text };
  const allowed = "Allowed fields: name, description, tags, version, author";
  if (split.unknownFields.length > 0) {
    const message = `${subject} has unknown frontmatter field(s): ${split.unknownFields.join(", ")}. ${allowed}`;
    const hint =
      "Frontmatter only labels a prompt; remove the other fields or move them into the prompt text.";
    sink.warnings.push({ ...warning("prompt-frontmatter-unknown-field", where.path, message, hint), file });
  }
  for (const name of split.badFields) {
    const shape = name === "tags" ? "a list of strings" : "a string";
    const message = `${subject}: frontmatter field "${name}" must be ${shape}; it is ignored`;
    const hint =
      name === "tags" ? "Write tags as a list: tags: [review, code]." : `Write ${name} as plain text.`;
    sink.warnings.push({ ...warning("prompt-frontmatter-field", where.path, message, hint), file });
  }
  return { text, metadata: split.metadata };
}
