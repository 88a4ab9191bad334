import fs from "node:fs";
import path from "node:path";
import { error, type ValidationIssue } from "./issues.ts";
import { parseJsonWithPosition } from "./load-json.ts";
import { DEFAULT_HANK_FILE } from "./load-positionals.ts";
import { nearNames } from "./near-names.ts";
import { decodeStrictUtf8 } from "./strict-utf8.ts";

export { findJsonFault, type JsonParse, lineAndColumn, parseJsonWithPosition } from "./load-json.ts";
export { applyModelOverride } from "./load-model-override.ts";
export {
  DEFAULT_HANK_FILE,
  looksLikeHank,
  type PositionalResolution,
  resolvePositionals,
} from "./load-positionals.ts";

/**
 * Loads a hank file: a `.json` file, or a directory holding `hank.json`. Only reading and JSON
 * syntax are checked here; the shape is the validator's job. Every failure is one issue with the
 * file it concerns and a hint; this never throws for user input.
 */
export type LoadResult =
  | {
      readonly ok: true;
      /** Absolute path of the hank file. */
      readonly hankPath: string;
      /** The directory hank refs are relative to. */
      readonly hankDir: string;
      readonly raw: unknown;
      /** The file's text as read (BOM removed); hashed for resume. */
      readonly text: string;
    }
  | {
      readonly ok: false;
      readonly issue: ValidationIssue;
      /** Where a JSON syntax error is, for a code frame. */
      readonly position?: { readonly line: number; readonly column: number; readonly offset: number };
    };

const PASS_HINT = "Pass a hank .json file or a directory that contains hank.json.";

export function loadHankFile(target: string, cwd: string): LoadResult {
  const unsupported = unsupportedSource(target);
  if (unsupported !== null) return { ok: false, issue: unsupported };
  const located = locateHankFile(path.resolve(cwd, target), cwd);
  if (typeof located !== "string") return { ok: false, issue: located };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(located);
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return fail(
      "hank-unreadable",
      located,
      `Cannot read hank file ${located}: ${reason}`,
      "Check the file's permissions.",
    );
  }
  const decoded = decodeStrictUtf8(bytes);
  if (!decoded.ok) {
    const message = `${located} is not valid UTF-8: ${decoded.where}`;
    return fail(
      "hank-not-utf8",
      located,
      message,
      "Save the file as UTF-8 (a text editor's encoding setting).",
    );
  }
  let text = decoded.text;
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const parsed = parseJsonWithPosition(text);
  if (!parsed.ok) {
    const where = `line ${parsed.line}, column ${parsed.column}`;
    const message = `Invalid JSON in ${located} at ${where}: ${parsed.message}`;
    const hint = `${parsed.hint} Fix the JSON at ${where}.`;
    const position = { line: parsed.line, column: parsed.column, offset: parsed.offset };
    return { ...fail("invalid-json", located, message, hint), position };
  }
  return { ok: true, hankPath: located, hankDir: path.dirname(located), raw: parsed.value, text };
}

/** Sources the reference accepts that this runtime does not read yet. */
function unsupportedSource(target: string): ValidationIssue | null {
  if (target === "-") {
    const hint = "Save the hank to a file and pass its path.";
    return withFile(
      error("hank-stdin-unsupported", [], "Reading a hank from stdin (-) is not supported", hint),
      "-",
    );
  }
  if (/^(?:https?:\/\/|git@)/.test(target)) {
    const hint = "Clone the repository and pass the path of its hank.json.";
    return withFile(
      error("hank-remote-unsupported", [], `Remote hanks are not supported: ${target}`, hint),
      target,
    );
  }
  const lower = target.toLowerCase();
  if (lower.endsWith(".hank") || lower.endsWith(".tar.zst")) {
    const hint = "Unpack the bundle and pass the path of its hank.json.";
    return withFile(
      error("hank-bundle-unsupported", [], `Hank bundles are not supported: ${target}`, hint),
      target,
    );
  }
  return null;
}

/** The hank file's absolute path, auto-discovering hank.json in a directory; or the issue. */
function locateHankFile(absolute: string, cwd: string): string | ValidationIssue {
  const stats = statOrIssue(absolute);
  if (stats === null) {
    const message = `Hank file not found: ${shownPath(absolute, cwd)}`;
    return notFound(absolute, message, nearbyHint(absolute, cwd));
  }
  if (!(stats instanceof fs.Stats)) return stats;
  if (stats.isDirectory()) {
    const candidate = path.join(absolute, DEFAULT_HANK_FILE);
    const inner = statOrIssue(candidate);
    if (inner === null) {
      const message = `No ${DEFAULT_HANK_FILE} in directory ${shownPath(absolute, cwd)}`;
      return notFound(candidate, message, directoryHint(absolute, cwd));
    }
    if (!(inner instanceof fs.Stats)) return inner;
    return inner.isFile() ? candidate : notAFile(candidate);
  }
  return stats.isFile() ? absolute : notAFile(absolute);
}

/**
 * A path as the user most likely typed it: relative to the cwd when it lies inside it, absolute
 * otherwise (the CLI resolves arguments against the cwd before they reach the loader).
 */
function shownPath(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? absolute : relative;
}

/** A missing hank: the entries beside it whose names are a typo away, when there are some. */
function nearbyHint(absolute: string, cwd: string): string {
  const near = nearNames(path.dirname(absolute), path.basename(absolute));
  if (near.length === 0) return PASS_HINT;
  const shown = near.map((name) => shownPath(path.join(path.dirname(absolute), name), cwd));
  return `Did you mean ${shown.join(" or ")}? ${PASS_HINT}`;
}

function directoryHint(directory: string, cwd: string): string {
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(directory)
      .filter((name) => name.toLowerCase().endsWith(".json"))
      .sort();
  } catch {
    names = [];
  }
  if (names.length === 0) return PASS_HINT;
  const shown = names.slice(0, 5).map((name) => shownPath(path.join(directory, name), cwd));
  const more = names.length > 5 ? `, and ${names.length - 5} more` : "";
  return `Pass the hank file itself, e.g. ${shown.join(", ")}${more}; or a directory that contains hank.json.`;
}

function notFound(file: string, message: string, hint: string): ValidationIssue {
  return withFile(error("hank-not-found", [], message, hint), file);
}

function notAFile(file: string): ValidationIssue {
  const hint = "Pass a regular JSON file (FIFOs, sockets and devices cannot be read as a hank).";
  return withFile(error("hank-not-a-file", [], `Hank path ${file} is not a regular file`, hint), file);
}

function fail(
  code: string,
  file: string,
  message: string,
  hint: string,
): { ok: false; issue: ValidationIssue } {
  return { ok: false, issue: withFile(error(code, [], message, hint), file) };
}

function withFile(issue: ValidationIssue, file: string): ValidationIssue {
  return { ...issue, file };
}

/** The entry's stats; null when it does not exist; an issue when it cannot be examined. */
function statOrIssue(target: string): fs.Stats | ValidationIssue | null {
  try {
    return fs.statSync(target);
  } catch (caught) {
    const code = caught instanceof Error && "code" in caught ? caught.code : undefined;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    const reason = caught instanceof Error ? caught.message : String(caught);
    return withFile(
      error("hank-unreadable", [], `Cannot read hank path ${target}: ${reason}`, "Check permissions."),
      target,
    );
  }
}
