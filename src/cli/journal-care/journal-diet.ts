import { readFileSync, statSync } from "node:fs";
import { openExecutionDoor } from "../../runner/index.ts";
import type { ExecutionLayout } from "../../workspace/execution-layout.ts";
import { dietLines, restoreLines, sha256Hex } from "./diet-transform.ts";
import {
  commitRename,
  type DietManifest,
  loadBody,
  manifestPath,
  readManifest,
  storeBody,
  writeTemporary,
} from "./journal-files.ts";

/** What a journal command did: lines for stdout or stderr, and the exit code. */
export interface JournalCareOutcome {
  readonly exitCode: 0 | 1;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `--diet-journal <exec>`: moves the long bodies of a finished run's journal into `cas/` (see
 * diet-transform.ts). Atomic: the bodies are stored first, the dieted journal and its manifest go to
 * temp files, the restore is computed from what is on disk and must give the original byte for byte,
 * then the manifest and the journal are renamed into place. The execution's runtime lock is held
 * throughout, so a running execution is refused and none starts meanwhile.
 */
export function dietJournal(executionDir: string, now: () => Date = () => new Date()): JournalCareOutcome {
  return underLock(executionDir, "not dieting", (layout) => {
    const journal = readJournal(layout);
    if (typeof journal === "string") return failure(`journal diet failed: ${journal}`);
    const manifest = readManifest(layout.eventsDir);
    if (typeof manifest === "string") return failure(`journal diet failed: ${manifest}`);
    if (manifest !== undefined && manifest.dietedSha256 === sha256Hex(journal.bytes)) {
      return success(`✓ Journal already dieted (${manifest.events} events)\n`);
    }
    const unfinished = unfinishedRun(journal.lines);
    if (unfinished !== undefined) return failure(`journal diet failed: ${unfinished}`);
    const dieted = dietLines(journal.lines);
    let casBytes = 0;
    for (const [sha256, body] of dieted.bodies) casBytes += storeBody(layout.eventsDir, sha256, body);
    const dietedText = joinLines(dieted.lines);
    const restored = joinLines(
      restoreLines(dieted.lines, dieted.moved, dieted.unchained, (sha) => loadBody(layout.eventsDir, sha)),
    );
    const originalSha256 = sha256Hex(journal.bytes);
    if (sha256Hex(restored) !== originalSha256) {
      return failure(
        "journal diet failed: the dieted journal would not restore byte for byte; nothing was changed",
      );
    }
    const next: DietManifest = {
      dietVersion: 1,
      events: journal.lines.length,
      originalSha256,
      originalBytes: journal.bytes.length,
      dietedSha256: sha256Hex(dietedText),
      dietedBytes: Buffer.byteLength(dietedText),
      unchained: [...dieted.unchained],
      moved: dieted.moved.map((entry) => ({ ...entry, path: [...entry.path] })),
      dietedAt: now().toISOString(),
    };
    const manifestTemp = writeTemporary(manifestPath(layout.eventsDir), `${JSON.stringify(next, null, 2)}\n`);
    const journalTemp = writeTemporary(layout.eventsPath, dietedText);
    if (sha256Hex(readFileSync(layout.eventsPath)) !== originalSha256) {
      return failure("journal diet failed: events.jsonl changed while dieting; nothing was changed");
    }
    commitRename(manifestTemp, manifestPath(layout.eventsDir));
    commitRename(journalTemp, layout.eventsPath);
    return success(
      `✓ Journal dieted: ${next.originalBytes} → ${next.dietedBytes} bytes (${dieted.bodies.size} unique bodies in CAS, ${casBytes} bytes compressed). Restore with: hankweave --restore-journal ${executionDir}\n`,
    );
  });
}

/**
 * `--restore-journal <exec>`: rebuilds the original journal of a dieted execution, checks its sha256
 * against the manifest and renames it into place. The manifest and `cas/` stay, so the diet can be
 * repeated; a journal that changed since the diet (a later run appended to it) is refused.
 */
export function restoreJournal(executionDir: string): JournalCareOutcome {
  return underLock(executionDir, "not restoring", (layout) => {
    const manifest = readManifest(layout.eventsDir);
    if (manifest === undefined) {
      return failure(
        `journal restore failed: ${manifestPath(layout.eventsDir)} not found (the journal was never dieted)`,
      );
    }
    if (typeof manifest === "string") return failure(`journal restore failed: ${manifest}`);
    const journal = readJournal(layout);
    if (typeof journal === "string") return failure(`journal restore failed: ${journal}`);
    const current = sha256Hex(journal.bytes);
    if (current === manifest.originalSha256) {
      return success(`✓ Journal already restored and verified (sha256 ${current})\n`);
    }
    if (current !== manifest.dietedSha256) {
      return failure(
        "journal restore failed: events.jsonl is neither the dieted journal nor the original (it changed since the diet); nothing was changed",
      );
    }
    const restored = joinLines(
      restoreLines(journal.lines, manifest.moved, manifest.unchained, (sha) =>
        loadBody(layout.eventsDir, sha),
      ),
    );
    if (sha256Hex(restored) !== manifest.originalSha256) {
      return failure(
        "journal restore failed: the rebuilt journal does not match the original's sha256; nothing was changed",
      );
    }
    commitRename(writeTemporary(layout.eventsPath, restored), layout.eventsPath);
    return success(
      `✓ Journal restored: ${Buffer.byteLength(restored)} bytes, verified byte-for-byte (sha256 ${manifest.originalSha256})\n`,
    );
  });
}

function underLock(
  executionDir: string,
  verb: string,
  act: (layout: ExecutionLayout) => JournalCareOutcome,
): JournalCareOutcome {
  const door = openExecutionDoor(executionDir);
  const { layout } = door;
  if (!statSync(layout.eventsPath, { throwIfNoEntry: false })?.isFile()) {
    return failure(`${verb} ${executionDir}: it has no journal (${layout.eventsPath}).`);
  }
  const done = door.withLock("journal-care", () => {
    try {
      return act(layout);
    } catch (caught) {
      return failure(`${verb} ${executionDir}: ${caught instanceof Error ? caught.message : String(caught)}`);
    }
  });
  if (done.ok) return done.value;
  const why = done.running ? "the execution appears to be running" : "its runtime.lock could not be read";
  return failure(`Error: ${verb} ${executionDir}: ${why}.\n${done.message}`);
}

interface JournalText {
  readonly bytes: Buffer;
  readonly lines: readonly string[];
}

/** The journal's records; a torn or unparseable line refuses (the diet must be exact). */
function readJournal(layout: ExecutionLayout): JournalText | string {
  const bytes = readFileSync(layout.eventsPath);
  const text = bytes.toString("utf8");
  if (text !== "" && !text.endsWith("\n"))
    return `${layout.eventsPath} ends in a torn line; run the execution once to repair it`;
  const lines = text === "" ? [] : text.slice(0, -1).split("\n");
  const bad = lines.findIndex((line) => !isJsonObject(line));
  if (bad !== -1) return `${layout.eventsPath} line ${bad + 1} is not a journal record`;
  return { bytes, lines };
}

/** Why the journal's last run is not finished (it ends with a RunStarted), or undefined. */
function unfinishedRun(lines: readonly string[]): string | undefined {
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] ?? "";
    const kind = /"transitionType":"(Run(?:Started|Completed|Failed|Crashed))"/.exec(line)?.[1];
    if (kind === undefined) continue;
    if (kind !== "RunStarted") return undefined;
    return "its last run did not finish (run the execution again to recover it, then diet)";
  }
  return undefined;
}

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function success(stdout: string): JournalCareOutcome {
  return { exitCode: 0, stdout, stderr: "" };
}

function failure(message: string): JournalCareOutcome {
  return {
    exitCode: 1,
    stdout: "",
    stderr: message.startsWith("Error: ") ? `${message}\n` : `Error: ${message}\n`,
  };
}
