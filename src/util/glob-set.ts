/**
 * Matching of `checkpointedFiles` globs against work-tree paths, with git's `:(glob)` pathspec
 * semantics (wildmatch with WM_PATHNAME): `*`, `?` and `[...]` never match `/`; a segment that is
 * exactly `**` spans directories (zero or more when leading or inner, one or more when trailing); any
 * other `**` acts as `*`; a backslash escapes the next character. Dotfiles are not special. On top of
 * that, a path matches when one of its leading directories matches (`notes` matches `notes/a.md`).
 *
 * The git implementation scans with the same globs as pathspecs (`gitPathspecs`) and filters what git
 * lists through `matches`, so the two can only select the same files or fewer.
 */
export interface GlobSet {
  /** The normalized globs. */
  readonly patterns: readonly string[];
  /** True when the path, or one of its leading directories, matches a glob. */
  matches(path: string): boolean;
  /** True when a file somewhere under directory `dir` could match a glob. */
  mayContain(dir: string): boolean;
}

type Segment = { readonly kind: "globstar" } | { readonly kind: "name"; readonly regex: RegExp };

/** `./a//b/` → `a/b`; the work tree itself (`.`, `/`, empty) → `**`. */
export function normalizeGlob(glob: string): string {
  const parts = glob.split("/").filter((part) => part !== "" && part !== ".");
  return parts.length === 0 ? "**" : parts.join("/");
}

export function compileGlobs(globs: readonly string[]): GlobSet {
  const patterns = [...new Set(globs.map(normalizeGlob))];
  const compiled = patterns.map((pattern) => pattern.split("/").map(compileSegment));
  return {
    patterns,
    matches: (path) => {
      const parts = path.split("/");
      return compiled.some((segments) => matchFrom(segments, 0, parts, 0));
    },
    mayContain: (dir) => {
      const parts = dir.split("/");
      return compiled.some((segments) => prefixFrom(segments, 0, parts, 0));
    },
  };
}

/** Each glob as git pathspecs: itself and its contents (git does not apply the directory rule to wildcards). */
export function gitPathspecs(globs: GlobSet): string[] {
  return globs.patterns.flatMap((pattern) =>
    pattern === "**" || pattern.endsWith("/**")
      ? [`:(glob)${pattern}`]
      : [`:(glob)${pattern}`, `:(glob)${pattern}/**`],
  );
}

function matchFrom(segments: readonly Segment[], si: number, parts: readonly string[], pi: number): boolean {
  const segment = segments[si];
  if (segment === undefined) return true; // the pattern matched this path or a leading directory of it
  if (segment.kind === "globstar") {
    if (si === segments.length - 1) return pi < parts.length;
    for (let k = pi; k <= parts.length; k++) if (matchFrom(segments, si + 1, parts, k)) return true;
    return false;
  }
  const part = parts[pi];
  return part !== undefined && segment.regex.test(part) && matchFrom(segments, si + 1, parts, pi + 1);
}

function prefixFrom(segments: readonly Segment[], si: number, parts: readonly string[], pi: number): boolean {
  const segment = segments[si];
  const part = parts[pi];
  if (segment === undefined || part === undefined || segment.kind === "globstar") return true;
  return segment.regex.test(part) && prefixFrom(segments, si + 1, parts, pi + 1);
}

function compileSegment(text: string): Segment {
  if (text === "**") return { kind: "globstar" };
  let source = "";
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === "*") {
      while (text.charAt(i + 1) === "*") i++;
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "[") {
      const bracket = compileBracket(text, i);
      if (bracket === undefined) source += "\\[";
      else {
        source += bracket.source;
        i = bracket.end;
      }
    } else if (char === "\\" && i + 1 < text.length) {
      i++;
      source += escapeRegex(text.charAt(i));
    } else {
      source += escapeRegex(char);
    }
  }
  return { kind: "name", regex: new RegExp(`^${source}$`, "u") };
}

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  blank: " \\t",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "\\x21-\\x7e",
  lower: "a-z",
  print: "\\x20-\\x7e",
  punct: "!-\\/:-@\\[-`{-~",
  space: " \\t\\n\\v\\f\\r",
  upper: "A-Z",
  xdigit: "0-9A-Fa-f",
};

/** A bracket expression starting at `start` (`[`), or undefined when it is not closed (then `[` is literal). */
function compileBracket(text: string, start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  const negated = text.charAt(i) === "!" || text.charAt(i) === "^";
  if (negated) i++;
  let body = "";
  for (let first = true; i < text.length; first = false) {
    if (text.charAt(i) === "]" && !first) return { source: `[${negated ? "^/" : ""}${body}]`, end: i };
    const posix = posixClassAt(text, i);
    if (posix === null) return { source: "(?!)", end: endOfBracket(text, i) };
    if (posix !== undefined) {
      body += posix.members;
      i = posix.next;
      continue;
    }
    const low = charAt(text, i);
    const dash = low.next;
    if (text.charAt(dash) === "-" && dash + 1 < text.length && text.charAt(dash + 1) !== "]") {
      const high = charAt(text, dash + 1);
      if (low.char <= high.char) body += `${escapeClassChar(low.char)}-${escapeClassChar(high.char)}`;
      i = high.next;
    } else {
      body += escapeClassChar(low.char);
      i = low.next;
    }
  }
  return undefined;
}

/** One (possibly backslash-escaped) character of a bracket expression. */
function charAt(text: string, i: number): { char: string; next: number } {
  if (text.charAt(i) === "\\" && i + 1 < text.length) return { char: text.charAt(i + 1), next: i + 2 };
  return { char: text.charAt(i), next: i + 1 };
}

/** `[:name:]` at `i`: its members, `null` for an unknown class (the bracket never matches), else undefined. */
function posixClassAt(text: string, i: number): { members: string; next: number } | null | undefined {
  if (text.charAt(i) !== "[" || text.charAt(i + 1) !== ":") return undefined;
  const close = text.indexOf(":]", i + 2);
  if (close < 0) return undefined;
  const members = POSIX_CLASSES[text.slice(i + 2, close)];
  return members === undefined ? null : { members, next: close + 2 };
}

function endOfBracket(text: string, from: number): number {
  const close = text.indexOf("]", from);
  return close < 0 ? text.length - 1 : close;
}

function escapeRegex(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

function escapeClassChar(char: string): string {
  return /[\\\]^[-]/.test(char) ? `\\${char}` : char;
}
