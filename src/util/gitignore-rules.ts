/**
 * A self-contained reading of one `.gitignore` file, enough for rig copies. Supported: comments,
 * blank lines, `!` negation (last matching rule wins), `\` escapes (`\#`, `\!`, `\ `), trailing
 * spaces stripped unless escaped, trailing `/` for directories only, a leading or inner `/` anchoring
 * the pattern to the file's directory, `*`, `?`, `[...]` classes (`!` or `^` negates) and a double
 * star as a whole path segment: leading (any directory), trailing (everything inside) or between two
 * slashes (zero or more directories).
 *
 * Callers walk the tree and stop at an ignored directory, which gives git's rule that nothing inside
 * an excluded directory can be re-included. Matching is case-sensitive, as git on Linux.
 */

export interface IgnoreRule {
  /** The line as written, for messages. */
  readonly source: string;
  readonly negate: boolean;
  readonly directoryOnly: boolean;
  readonly regex: RegExp;
}

export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    const rule = parseLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    if (rule !== null) rules.push(rule);
  }
  return rules;
}

/** `path` is relative to the .gitignore's directory, `/`-separated, without a leading or trailing `/`. */
export function isIgnored(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.regex.test(path)) ignored = !rule.negate;
  }
  return ignored;
}

function parseLine(line: string): IgnoreRule | null {
  if (line === "" || line.startsWith("#")) return null;
  let pattern = stripTrailingSpaces(line);
  const negate = pattern.startsWith("!");
  if (negate) pattern = pattern.slice(1);
  const directoryOnly = pattern.endsWith("/");
  pattern = pattern.replace(/\/+$/, "");
  const anchored = pattern.includes("/");
  pattern = pattern.replace(/^\/+/, "");
  if (pattern === "") return null;
  const body = globToRegex(pattern);
  const regex = new RegExp(`^${anchored ? "" : "(?:.*/)?"}${body}$`);
  return { source: line, negate, directoryOnly, regex };
}

/** Trailing spaces are dropped unless the last one is escaped with a backslash. */
function stripTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end--;
  return line.slice(0, end);
}

function globToRegex(pattern: string): string {
  let out = "";
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] ?? "";
    if (char === "\\") {
      out += escapeRegex(pattern[i + 1] ?? "\\");
      i += 2;
    } else if (char === "*") {
      const [regex, used] = starToRegex(pattern, i);
      out += regex;
      i += used;
    } else if (char === "?") {
      out += "[^/]";
      i++;
    } else if (char === "[") {
      const [regex, used] = classToRegex(pattern, i);
      out += regex;
      i += used;
    } else {
      out += escapeRegex(char);
      i++;
    }
  }
  return out;
}

/** `**` counts only as a whole segment; anywhere else it is a plain `*`. Returns [regex, chars used]. */
function starToRegex(pattern: string, at: number): [string, number] {
  if (pattern[at + 1] !== "*") return ["[^/]*", 1];
  const segmentStart = at === 0 || pattern[at - 1] === "/";
  const after = pattern[at + 2];
  if (segmentStart && after === "/") return ["(?:.*/)?", 3];
  if (segmentStart && after === undefined) return [".*", 2];
  return ["[^/]*", 2];
}

/** A bracket class up to its closing `]`; an unclosed `[` is a literal. Never matches `/`. */
function classToRegex(pattern: string, at: number): [string, number] {
  let i = at + 1;
  const negated = pattern[i] === "!" || pattern[i] === "^";
  if (negated) i++;
  if (pattern[i] === "]") i++;
  const close = pattern.indexOf("]", i);
  if (close === -1) return ["\\[", 1];
  const content = pattern.slice(at + 1 + (negated ? 1 : 0), close).replace(/[\\^[\]]/g, "\\$&");
  return [negated ? `[^/${content}]` : `(?!/)[${content}]`, close - at + 1];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
