import { createHash } from "node:crypto";
import { chainedLine, lineHash } from "../../journal/record-chain.ts";

/**
 * The pure part of the journal diet: long string bodies (assistant text, tool inputs and results, rig
 * and sentinel output) leave the journal for a content-addressed store and are replaced in place by
 * an abbreviation that is still a string. Every record keeps its id, seq, type and every other field,
 * so each reader (reducer, audit, handshake history, TUI) reads the dieted journal as it read the
 * original; the lines are re-chained (`prev`) so the hash chain holds.
 *
 * Restoring is the inverse: each moved body goes back at its JSON path and the original lines are
 * re-serialised. Our writer produces every line with `JSON.stringify`, whose output survives a parse
 * and stringify round trip byte for byte, so the restore is exact; the diet checks that before it
 * commits anything (see journal-diet.ts).
 */

/**
 * Bodies shorter than this stay inline: moving one would save less than about 350 bytes of journal
 * for a file in `cas/`. A model's answer of a paragraph or two (and the same text again as the codon's
 * result, which shares its `cas/` file) is above it.
 */
export const DIET_MIN_BODY_BYTES = 512;
/** How much of a moved body stays in the journal, so a reader still sees what it was. */
const KEPT_PREFIX_CHARS = 64;

export interface MovedBody {
  readonly seq: number;
  /** Where the string was inside the record's `data`. */
  readonly path: readonly (string | number)[];
  readonly sha256: string;
}

export interface DietedJournal {
  readonly lines: readonly string[];
  readonly moved: readonly MovedBody[];
  /** Bodies by sha256 (each once). */
  readonly bodies: ReadonlyMap<string, string>;
  /** Lines (0-based) that had no `prev` in the original: restore leaves them unlinked again. */
  readonly unchained: readonly number[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Diets the journal's lines (each one record, without its LF). Throws on a line that is not JSON. */
export function dietLines(lines: readonly string[]): DietedJournal {
  const moved: MovedBody[] = [];
  const bodies = new Map<string, string>();
  const unchained: number[] = [];
  const out: string[] = [];
  lines.forEach((line, index) => {
    const { prev, ...record } = JSON.parse(line) as JsonObject;
    if (prev === undefined) unchained.push(index);
    const seq = typeof record.seq === "number" ? record.seq : index + 1;
    const data = shrink(record.data ?? null, [], (path, body) => {
      const sha256 = sha256Hex(body);
      bodies.set(sha256, body);
      moved.push({ seq, path, sha256 });
      return abbreviation(body, sha256);
    });
    out.push(JSON.stringify({ ...record, data }));
  });
  return { lines: rechain(out, new Set(unchained)), moved, bodies, unchained };
}

/** Rebuilds the original lines from dieted ones; `body` returns a moved body by its sha256. */
export function restoreLines(
  lines: readonly string[],
  moved: readonly MovedBody[],
  unchained: readonly number[],
  body: (sha256: string) => string,
): string[] {
  const bySeq = new Map<number, MovedBody[]>();
  for (const entry of moved) bySeq.set(entry.seq, [...(bySeq.get(entry.seq) ?? []), entry]);
  const out = lines.map((line, index) => {
    const { prev: _prev, ...record } = JSON.parse(line) as JsonObject;
    const seq = typeof record.seq === "number" ? record.seq : index + 1;
    for (const entry of bySeq.get(seq) ?? []) setAt(record, ["data", ...entry.path], body(entry.sha256));
    return JSON.stringify(record);
  });
  return rechain(out, new Set(unchained));
}

export function sha256Hex(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

function rechain(jsons: readonly string[], unchained: ReadonlySet<number>): string[] {
  const lines: string[] = [];
  let previous: string | undefined;
  jsons.forEach((json, index) => {
    const line = chainedLine(json, unchained.has(index) ? undefined : previous);
    lines.push(line);
    previous = lineHash(line);
  });
  return lines;
}

function shrink(
  value: Json,
  path: (string | number)[],
  move: (path: (string | number)[], body: string) => string,
): Json {
  if (typeof value === "string") {
    return Buffer.byteLength(value) >= DIET_MIN_BODY_BYTES ? move([...path], value) : value;
  }
  if (Array.isArray(value)) return value.map((item, index) => shrink(item, [...path, index], move));
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) out[key] = shrink(item, [...path, key], move);
  return out;
}

function abbreviation(body: string, sha256: string): string {
  const bytes = Buffer.byteLength(body);
  return `${body.slice(0, KEPT_PREFIX_CHARS)}… [${bytes} bytes in cas/${sha256.slice(0, 16)}; hankweave --restore-journal]`;
}

function setAt(target: JsonObject, path: readonly (string | number)[], value: string): void {
  let node: Json = target;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== "object") throw new Error(`no value at ${path.join(".")}`);
    node = (node as Record<string, Json>)[key as string] ?? null;
  }
  const last = path.at(-1);
  if (node === null || typeof node !== "object" || last === undefined) {
    throw new Error(`no value at ${path.join(".")}`);
  }
  (node as Record<string, Json>)[last as string] = value;
}
