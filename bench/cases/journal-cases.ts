import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { EventDraftOf } from "../../src/engine/index.ts";
import { JournalWriter, loadRunState, readTail, writeSnapshot } from "../../src/journal/index.ts";
import { instantiate, type JournalTemplate, recordTemplate } from "./journal-template.ts";

/** Where the journal benchmark keeps its files: `<dir>/.hankweave/events/events.jsonl` and `state.json`. */
function paths(dir: string): { stateDir: string; journal: string } {
  const stateDir = join(dir, ".hankweave");
  return { stateDir, journal: join(stateDir, "events", "events.jsonl") };
}

export interface JournalBuildArgs {
  readonly dir: string;
  readonly events: number;
  /** Events appended one `append` at a time, and with `durable: true`, for the append rates. */
  readonly singleEvents: number;
  readonly durableEvents: number;
}

export interface JournalBuildResult {
  readonly events: number;
  readonly bytes: number;
  readonly codons: number;
  readonly eventsPerCodon: number;
  readonly appendUs: number;
  readonly appendDurableUs: number;
  readonly appendBatchUs: number;
  readonly snapshotBytes: number;
}

/** Measures append rates, then writes the long journal in batches of about 1,000 events and its snapshot. */
export async function journalBuild(args: JournalBuildArgs): Promise<JournalBuildResult> {
  const template = await recordTemplate();
  const iterationJson = JSON.stringify(template.iteration);
  const appendUs = appendRate(join(args.dir, "single.jsonl"), iterationJson, args.singleEvents, false);
  const appendDurableUs = appendRate(
    join(args.dir, "durable.jsonl"),
    iterationJson,
    args.durableEvents,
    true,
  );
  const { stateDir, journal } = paths(args.dir);
  mkdirSync(stateDir, { recursive: true });
  const built = writeLongJournal(journal, template, iterationJson, args.events);
  const loaded = await loadRunState(stateDir, { journalPath: journal });
  writeSnapshot(stateDir, { runState: loaded.state });
  return {
    events: built.events,
    bytes: statSync(journal).size,
    codons: loaded.state.codons.length,
    eventsPerCodon: template.iteration.length,
    appendUs,
    appendDurableUs,
    appendBatchUs: built.batchUs,
    snapshotBytes: statSync(join(stateDir, "state.json")).size,
  };
}

/** Microseconds per event of `JournalWriter.append`, one event per call (envelope, stringify, write). */
function appendRate(path: string, iterationJson: string, count: number, durable: boolean): number {
  const writer = JournalWriter.open(path, { durable });
  const drafts: EventDraftOf[] = [];
  for (let n = 1; drafts.length < count; n++) drafts.push(...instantiate(iterationJson, n));
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const draft = drafts[i];
    if (draft !== undefined) writer.append(draft);
  }
  const us = ((performance.now() - start) * 1000) / count;
  writer.close();
  rmSync(path, { force: true });
  return us;
}

function writeLongJournal(
  path: string,
  template: JournalTemplate,
  iterationJson: string,
  target: number,
): { events: number; batchUs: number } {
  const writer = JournalWriter.open(path);
  writer.appendAll(template.head);
  let events = template.head.length;
  let timed = 0;
  const perBatch = Math.max(1, Math.round(1000 / template.iteration.length));
  for (let n = 1; events < target; n += perBatch) {
    const batch: EventDraftOf[] = [];
    for (let k = 0; k < perBatch && events + batch.length < target; k++) {
      batch.push(...instantiate(iterationJson, n + k));
    }
    const start = performance.now();
    writer.appendAll(batch);
    timed += performance.now() - start;
    events += batch.length;
  }
  writer.close();
  return { events, batchUs: (timed * 1000) / (events - template.head.length) };
}

export interface JournalReadArgs {
  readonly dir: string;
  readonly tailRepeats: number;
  readonly resumeRepeats: number;
  /** Also replay the whole journal (no snapshot), once. */
  readonly replay: boolean;
}

export interface JournalReadResult {
  readonly tailFirstMs: number;
  readonly tailMs: number[];
  readonly resumeFirstMs: number;
  readonly resumeMs: number[];
  readonly resumeSource: string;
  readonly replayMs: number | null;
  readonly replayRssMb: number | null;
}

/** In a fresh process: the first tail read and the first resume, then warm repeats; a full replay last. */
export async function journalRead(args: JournalReadArgs): Promise<JournalReadResult> {
  const { stateDir, journal } = paths(args.dir);
  const tail = (): number => {
    const start = performance.now();
    const read = readTail(journal, 50);
    if (read.events.length !== 50) throw new Error(`tail read ${read.events.length} events`);
    return performance.now() - start;
  };
  const resume = async (): Promise<{ ms: number; source: string }> => {
    const start = performance.now();
    const loaded = await loadRunState(stateDir, { journalPath: journal });
    return { ms: performance.now() - start, source: loaded.source };
  };
  const tailFirstMs = tail();
  const tailMs = Array.from({ length: args.tailRepeats }, tail);
  const first = await resume();
  const resumeMs: number[] = [];
  for (let i = 0; i < args.resumeRepeats; i++) resumeMs.push((await resume()).ms);
  let replayMs: number | null = null;
  if (args.replay) {
    const start = performance.now();
    const loaded = await loadRunState(join(args.dir, "no-snapshot"), { journalPath: journal });
    replayMs = performance.now() - start;
    if (loaded.source !== "journal") throw new Error("replay used a snapshot");
  }
  return {
    tailFirstMs,
    tailMs,
    resumeFirstMs: first.ms,
    resumeMs,
    resumeSource: first.source,
    replayMs,
    replayRssMb: args.replay ? process.resourceUsage().maxRSS / 1024 : null,
  };
}
