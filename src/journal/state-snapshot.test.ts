import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { DataOf, JournaledEvent } from "../events/events.ts";
import { readAll } from "./journal-reader.ts";
import { type EventDraft, JournalWriter } from "./journal-writer.ts";
import { journalPathIn, loadRunState } from "./load-run-state.ts";
import { reduce } from "./reduce.ts";
import { emptyCodonRecord, initialRunState, type RunState } from "./run-state.ts";
import { readSnapshot, SNAPSHOT_BACKUP_FILE, SNAPSHOT_FILE, writeSnapshot } from "./state-snapshot.ts";

let dir = "";
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), "hankweave-snapshot-")), ".hankweave");
});
afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

const at = (second: number) => (): Date => new Date(Date.UTC(2025, 0, 1, 0, 0, second));

function runStarted(runId: string): EventDraft<"state.transition"> {
  return {
    type: "state.transition",
    data: {
      transitionType: "RunStarted",
      runId,
      transition: { type: "RunStarted", data: {} },
      resultingState: { currentRunId: runId, runCount: 1, totalCost: 0, currentRunCost: 0 },
    },
  };
}

function codonRun(writer: JournalWriter, codonId: string, cost: number): void {
  const started: DataOf<"codon.started"> = {
    codonId,
    codonName: codonId,
    sessionId: `s-${codonId}`,
    startTime: "2025-01-01T00:00:00.000Z",
  };
  writer.append({ type: "codon.started", data: started });
  const usage = {
    codonId,
    inputTokens: 100,
    outputTokens: 20,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    totalCost: cost,
  };
  writer.append({ type: "token.usage", data: usage });
  writer.append({ type: "assistant.action", data: { codonId, action: "message", content: "done" } });
  const done = { codonId, success: true, cost, duration: 1000, exitStatus: { type: "success" as const } };
  writer.append({ type: "codon.completed", data: done });
}

function openWriter(): JournalWriter {
  let n = 0;
  return JournalWriter.open(journalPathIn(dir), { now: at(0), newId: () => `id-${++n}` });
}

async function fullReplay(): Promise<RunState> {
  const { events } = await readAll(journalPathIn(dir));
  return events.reduce((state: RunState, event: JournaledEvent) => reduce(state, event), initialRunState());
}

describe("state snapshot", () => {
  it("writes atomically, keeping the previous snapshot as state.json.bak", () => {
    const first = writeSnapshot(dir, { runState: initialRunState(), executionPlan: { version: 1 } }, at(1));
    assert.equal(readFileSync(join(dir, SNAPSHOT_FILE), "utf8"), `${JSON.stringify(first)}\n`);
    assert.equal(existsSync(join(dir, SNAPSHOT_BACKUP_FILE)), false);
    const state = { ...initialRunState(), lastSeq: 4, lastEventId: "e4" };
    const second = writeSnapshot(dir, { runState: state, initialCheckpoint: "abc" }, at(2));
    assert.deepEqual(second, {
      v: 1,
      savedAt: "2025-01-01T00:00:02.000Z",
      runState: state,
      initialCheckpoint: "abc",
    });
    assert.deepEqual(readSnapshot(dir), { found: true, snapshot: second, file: SNAPSHOT_FILE, problems: [] });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, SNAPSHOT_BACKUP_FILE), "utf8")), first);
    assert.equal(existsSync(join(dir, "state.json.tmp")), false);
  });

  it("falls back to state.json.bak when state.json is corrupt", () => {
    const first = writeSnapshot(dir, { runState: initialRunState() }, at(1));
    writeSnapshot(dir, { runState: initialRunState() }, at(2));
    writeFileSync(join(dir, SNAPSHOT_FILE), '{"v":1,"savedAt":');
    assert.deepEqual(readSnapshot(dir), {
      found: true,
      snapshot: first,
      file: SNAPSHOT_BACKUP_FILE,
      problems: ["state.json: not valid JSON"],
    });
    writeFileSync(join(dir, SNAPSHOT_FILE), '{"v":1}');
    const read = readSnapshot(dir);
    assert.equal(read.found && read.file, SNAPSHOT_BACKUP_FILE);
    assert.deepEqual(read.problems, [
      "state.json: not a snapshot (savedAt: Invalid input: expected string, received undefined)",
    ]);
  });

  it("reads a snapshot written before codon records had a result, as result null", () => {
    const written = writeSnapshot(dir, {
      runState: { ...initialRunState(), codons: [emptyCodonRecord("a")] },
    });
    const { result: _, ...older } = emptyCodonRecord("a");
    const text = JSON.stringify({ ...written, runState: { ...written.runState, codons: [older] } });
    writeFileSync(join(dir, SNAPSHOT_FILE), text);
    const read = readSnapshot(dir);
    assert.equal(read.found && read.file, SNAPSHOT_FILE);
    assert.deepEqual(read.found && read.snapshot.runState.codons, [emptyCodonRecord("a")]);
  });

  it("reports nothing found when neither file exists", () => {
    assert.deepEqual(readSnapshot(dir), { found: false, problems: [] });
  });
});

describe("loadRunState", () => {
  it("applies only the journal tail after the snapshot and equals a full replay", async () => {
    const writer = openWriter();
    writer.append(runStarted("run-1"));
    codonRun(writer, "a", 0.5);
    const atSnapshot = await fullReplay();
    writeSnapshot(dir, { runState: atSnapshot, executionPlan: { entries: [] } }, at(3));
    codonRun(writer, "b", 0.25);
    writer.append({
      type: "token.usage",
      data: {
        codonId: "c",
        inputTokens: 1,
        outputTokens: 1,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
        totalCost: 0.125,
      },
    });
    writer.close();

    const loaded = await loadRunState(dir);
    assert.equal(atSnapshot.lastSeq, 5);
    assert.deepEqual(
      [loaded.source, loaded.applied, loaded.skipped, loaded.torn, loaded.problems],
      ["snapshot+journal", 5, 0, false, []],
    );
    assert.deepEqual(loaded.snapshot?.executionPlan, { entries: [] });
    assert.deepEqual(loaded.state, await fullReplay());
    assert.equal(loaded.state.totals.cost, 0.875);
  });

  it("replays the journal when there is no snapshot", async () => {
    const writer = openWriter();
    writer.append(runStarted("run-1"));
    codonRun(writer, "a", 0.5);
    writer.close();
    const loaded = await loadRunState(dir);
    assert.deepEqual([loaded.source, loaded.applied, loaded.snapshot], ["journal", 5, null]);
    assert.deepEqual(loaded.state, await fullReplay());
  });

  it("lets the journal win when the snapshot is ahead of it", async () => {
    const writer = openWriter();
    writer.append(runStarted("run-1"));
    codonRun(writer, "a", 0.5);
    writer.close();
    writeSnapshot(dir, { runState: await fullReplay() }, at(3));
    const journal = journalPathIn(dir);
    const lines = readFileSync(journal, "utf8").split("\n");
    truncateSync(journal, Buffer.byteLength(`${lines.slice(0, 3).join("\n")}\n`));

    const loaded = await loadRunState(dir);
    assert.deepEqual(
      [loaded.source, loaded.applied, loaded.problems],
      [
        "journal",
        3,
        ["state.json disagrees with the journal: the journal has no event 5 (found 3); replayed the journal"],
      ],
    );
    assert.deepEqual(loaded.state, await fullReplay());
    assert.equal(loaded.state.lastSeq, 3);
  });

  it("lets the journal win when the event at the snapshot's seq is another one", async () => {
    const writer = openWriter();
    writer.append(runStarted("run-1"));
    writer.close();
    const foreign = { ...(await fullReplay()), lastEventId: "elsewhere" };
    writeSnapshot(dir, { runState: foreign }, at(3));
    const loaded = await loadRunState(dir);
    assert.deepEqual(loaded.problems, [
      "state.json disagrees with the journal: event 1 is 'id-1' in the journal, not 'elsewhere'; replayed the journal",
    ]);
    assert.deepEqual(loaded.state, await fullReplay());
  });

  it("uses state.json.bak when state.json is corrupt, then the tail after it", async () => {
    const writer = openWriter();
    writer.append(runStarted("run-1"));
    writeSnapshot(dir, { runState: await fullReplay() }, at(1));
    codonRun(writer, "a", 0.5);
    writer.close();
    writeSnapshot(dir, { runState: await fullReplay() }, at(2));
    writeFileSync(join(dir, SNAPSHOT_FILE), "garbage");
    const loaded = await loadRunState(dir);
    assert.deepEqual(
      [loaded.source, loaded.applied, loaded.problems],
      ["snapshot+journal", 4, ["state.json: not valid JSON"]],
    );
    assert.deepEqual(loaded.state, await fullReplay());
  });

  it("loads an empty state from an empty directory", async () => {
    const loaded = await loadRunState(dir);
    assert.deepEqual(loaded, {
      state: initialRunState(),
      source: "journal",
      snapshot: null,
      applied: 0,
      skipped: 0,
      torn: false,
      problems: [],
    });
  });
});
