import { closeSync, fstatSync, openSync } from "node:fs";
import type { JournaledEvent } from "../journal/index.ts";
import { parseRecord } from "../journal/parse-record.ts";
import { scanLinesBackward, tornTailLength } from "../journal/scan-lines.ts";

/** The head of a journal line, where the envelope puts `seq`: `{"v":1,"id":"<id>","seq":<n>,`. */
const SEQ_SNIFF_BYTES = 256;
const SEQ_PATTERN = /^\{"v":\d+,"id":"(?:[^"\\]|\\.)*","seq":(\d+)[,}]/;

/**
 * The journal's events with `from <= seq <= to`, oldest first, read backwards from the end: the cost
 * follows how far back `from` lies, not the journal's length, and lines newer than `to` are passed
 * over by the `seq` their head shows, without parsing them (a page deep in a long history reads bytes,
 * not JSON). A missing journal reads as empty; lines that are not events are skipped.
 */
export function readSeqRange(path: string, from: number, to: number): JournaledEvent[] {
  if (to < from) return [];
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (caught) {
    if (caught instanceof Error && "code" in caught && caught.code === "ENOENT") return [];
    throw caught;
  }
  const newestFirst: JournaledEvent[] = [];
  try {
    const size = fstatSync(fd).size;
    scanLinesBackward(fd, size - tornTailLength(fd, size), (line) => {
      const sniffed = sniffSeq(line);
      if (sniffed !== undefined && sniffed > to) return true;
      if (sniffed !== undefined && sniffed < from) return false;
      const event = parseRecord(line.toString("utf8"), false);
      if (event === null || event.seq > to) return true;
      if (event.seq < from) return false;
      newestFirst.push(event);
      return true;
    });
  } finally {
    closeSync(fd);
  }
  return newestFirst.reverse();
}

function sniffSeq(line: Buffer): number | undefined {
  const match = SEQ_PATTERN.exec(line.toString("latin1", 0, Math.min(line.length, SEQ_SNIFF_BYTES)));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
