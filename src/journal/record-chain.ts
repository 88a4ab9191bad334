import { createHash, hash } from "node:crypto";

/**
 * The journal's hash chain. Every record the writer appends carries `prev`, the hash of the line before
 * it (`lineHash`: the first 16 hex digits of the SHA-256 of the line's bytes, without its LF); the first
 * record of a journal has none. A record edited, inserted, removed or moved in the file, or a journal
 * cut at the front, breaks the chain at the next record, and readers report where.
 *
 * `prev` is a field of the line, not of the event: readers strip it and return the event exactly as it
 * was broadcast. The record version does not change (`v` stays 1): a journal written before the chain
 * existed has no `prev` anywhere and reads as before, unverified; one continued by a newer runtime is
 * verified from its first chained record on.
 *
 * The chain detects changes made by anything that does not rewrite every following record. It is not a
 * signature: whoever can write the file can recompute the hashes.
 */

/**
 * One-shot SHA-256 where Node has it (20.12 and later: about a third of the cost of a hash object per
 * line, which matters at one line per event); a hash object on older Node 20 releases.
 */
const sha256Hex: (data: string | Buffer) => string =
  typeof hash === "function"
    ? (data) => hash("sha256", data, "hex")
    : (data) => createHash("sha256").update(data).digest("hex");

/** The hash a following record carries in `prev`. */
export function lineHash(line: string | Buffer): string {
  return sha256Hex(line).slice(0, 16);
}

/** A record's JSON with `prev` added as its last field. `json` is one `JSON.stringify`d object. */
export function chainedLine(json: string, prev: string | undefined): string {
  return prev === undefined ? json : `${json.slice(0, -1)},"prev":"${prev}"}`;
}

/** Where the chain is broken: the record whose link does not hold (its `seq`, when it could be read). */
export interface ChainBreak {
  readonly seq: number | null;
  readonly message: string;
}

/** One line as the chain sees it: its hash, its `prev` (undefined when it has none) and its `seq`. */
export interface ChainLink {
  readonly hash: string;
  readonly prev: string | undefined;
  readonly seq: number | null;
}

/** Checks links in file order (oldest first). */
export class ForwardChain {
  readonly breaks: ChainBreak[] = [];
  #before: ChainLink | undefined;
  #chained = false;

  next(link: ChainLink): void {
    const problem = linkProblem(this.#before, link, this.#chained);
    if (problem !== undefined) this.breaks.push({ seq: link.seq, message: problem });
    if (link.prev !== undefined) this.#chained = true;
    this.#before = link;
  }
}

/**
 * Checks links newest first, as backward tail reads meet them, and finds what `ForwardChain` finds over
 * the same lines: a line without a link is reported once an older chained line shows up. `atStart` is
 * called when the scan reached the first line of the file, which must not point at a predecessor.
 */
export class BackwardChain {
  readonly #breaks: ChainBreak[] = [];
  /** Newer lines without a link, waiting to learn whether a chained record precedes them. */
  #unlinked: ChainLink[] = [];
  #after: ChainLink | undefined;

  /** The breaks found, oldest first. */
  get breaks(): ChainBreak[] {
    return [...this.#breaks].reverse();
  }

  previous(link: ChainLink): void {
    const after = this.#after;
    if (after?.prev !== undefined) {
      const problem = linkProblem(link, after, true);
      if (problem !== undefined) this.#breaks.push({ seq: after.seq, message: problem });
    }
    if (link.prev === undefined) this.#unlinked.push(link);
    else {
      for (const unlinked of this.#unlinked) {
        this.#breaks.push({ seq: unlinked.seq, message: unlinkedProblem(unlinked) });
      }
      this.#unlinked = [];
    }
    this.#after = link;
  }

  atStart(): void {
    const first = this.#after;
    if (first?.prev !== undefined) this.#breaks.push({ seq: first.seq, message: startProblem(first) });
  }
}

/** Why `link` does not follow `before` (undefined when it does); `chainedBefore`: a record before it had `prev`. */
function linkProblem(
  before: ChainLink | undefined,
  link: ChainLink,
  chainedBefore: boolean,
): string | undefined {
  const what = recordName(link);
  if (link.prev === undefined) return chainedBefore ? unlinkedProblem(link) : undefined;
  if (before === undefined) return startProblem(link);
  if (link.prev !== before.hash) {
    return `${what} does not follow the record before it (${recordName(before)} was changed, removed or inserted)`;
  }
  return undefined;
}

function unlinkedProblem(link: ChainLink): string {
  return `${recordName(link)} has no hash link although the records before it have one (added by hand?)`;
}

function startProblem(link: ChainLink): string {
  return `${recordName(link)} is the journal's first line but follows a record that is gone (the journal was cut at the front)`;
}

function recordName(link: ChainLink): string {
  return link.seq === null ? "an unreadable line" : `record ${link.seq}`;
}

/** One line per break, for messages: "record 12 does not follow ...; record 40 ...". */
export function describeBreaks(breaks: readonly ChainBreak[], limit = 3): string {
  const shown = breaks.slice(0, limit).map((b) => b.message);
  const more = breaks.length > limit ? `; and ${breaks.length - limit} more` : "";
  return `${shown.join("; ")}${more}`;
}
