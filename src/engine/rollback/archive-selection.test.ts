import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileGlobs } from "../../checkpoint/index.ts";
import { archivesToRestore } from "./archive-selection.ts";
import type { ArchivedEntry } from "./rollback-types.ts";
import { checkpoint } from "./test-journal.ts";

function entry(id: string, codonId: string, runId: string, archivedAt: string, from: string): ArchivedEntry {
  return { id, codonId, runId, archivedAt, from };
}

const at = (seconds: number): string => new Date(Date.UTC(2025, 0, 1, 0, 0, seconds)).toISOString();

const aRig = checkpoint("run-1", "a", "rig-setup", "a0", at(1));
const aDone = checkpoint("run-1", "a", "completed", "a1", at(10));
const bDone = checkpoint("run-1", "b", "completed", "b1", at(20));
const entries = [
  entry("e1", "a", "run-1", at(11), "inputs/raw.csv"),
  entry("e2", "b", "run-1", at(21), "scratch/notes.txt"),
  entry("e3", "b", "run-1", at(21), "report.md"),
  entry("e0", "setup", "run-1", at(0), "old.txt"),
];
const selection = compileGlobs(["report.md"]);

describe("archivesToRestore", () => {
  it("restores what was archived after a start checkpoint, the codon's own archive included", () => {
    const chosen = archivesToRestore({ entries, target: aRig, nextOnRun: aDone, selection });
    assert.deepEqual(
      chosen.map((e) => e.id),
      ["e1", "e2"],
    );
  });

  it("keeps a completed codon's own archive archived: it belongs to that codon's success", () => {
    const chosen = archivesToRestore({ entries, target: aDone, nextOnRun: bDone, selection });
    assert.deepEqual(
      chosen.map((e) => e.id),
      ["e2"],
    );
  });

  it("leaves paths of the checkpoint selection to the checkpoint", () => {
    const chosen = archivesToRestore({
      entries,
      target: aRig,
      nextOnRun: aDone,
      selection: compileGlobs(["**"]),
    });
    assert.deepEqual(chosen, []);
  });

  it("treats everything a run archived after its last checkpoint as that checkpoint's boundary", () => {
    const chosen = archivesToRestore({ entries, target: bDone, nextOnRun: undefined, selection });
    assert.deepEqual(chosen, []);
    const otherRun = [entry("e4", "c", "run-2", at(30), "c.txt")];
    assert.deepEqual(
      archivesToRestore({ entries: otherRun, target: bDone, nextOnRun: undefined, selection }).map(
        (e) => e.id,
      ),
      ["e4"],
    );
  });
});
