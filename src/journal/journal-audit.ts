import { open } from "node:fs/promises";
import { type ChainBreak, describeBreaks, ForwardChain, lineHash } from "./record-chain.ts";
import { CHUNK_BYTES, forEachLine } from "./scan-lines.ts";

/** The end of a chained line: `,"prev":"<16 hex digits>"}`, as the writer puts it last. */
const PREV_SUFFIX = /,"prev":"([0-9a-f]{16})"}$/;
const SEQ = /"seq":(\d+)/;

/**
 * Checks the hash chain of a whole journal, oldest line first, streaming it in 64 KiB chunks so a run
 * can do it in the background as it resumes. Faster than a replay: it hashes each line and reads its
 * `prev` and `seq` without parsing the JSON. Lines appended while it reads are checked too; an
 * unterminated last line is a write in progress (or a torn one) and is left out. A missing journal has
 * nothing to break.
 */
export async function auditJournal(path: string): Promise<ChainBreak[]> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
    throw error;
  }
  const chain = new ForwardChain();
  const stream = handle.createReadStream({ highWaterMark: CHUNK_BYTES });
  await forEachLine(stream, (line) => {
    const tail = line.subarray(Math.max(0, line.length - 40)).toString("latin1");
    const head = line.subarray(0, 120).toString("latin1");
    const seq = SEQ.exec(head)?.[1];
    chain.next({
      hash: lineHash(line),
      prev: PREV_SUFFIX.exec(tail)?.[1],
      seq: seq === undefined ? null : Number(seq),
    });
  });
  return chain.breaks;
}

/** The one-line report of a broken chain, naming the file and what to do; undefined when it holds. */
export function auditMessage(breaks: readonly ChainBreak[], path: string): string | undefined {
  if (breaks.length === 0) return undefined;
  return `The journal ${path} was changed outside hankweave: ${describeBreaks(breaks)}. The run goes on from the journal as it reads now; if the change was not yours, compare the file with a backup or start a new execution.`;
}
