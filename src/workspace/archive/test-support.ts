import { FIXED_MS, type WorkspaceFixture } from "../outputs/test-support.ts";
import type { ArchiveTarget } from "./archive-dir.ts";
import type { ArchiveEvent } from "./archive-events.ts";
import { type ArchivePathsResult, archivePaths } from "./archive-paths.ts";

/** Shared by the archive tests: a recording archiver with a settable clock and numbered entry ids. */

export const HELLO_SHA256 = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

export interface Archiver {
  readonly events: ArchiveEvent[];
  /** Milliseconds the clock reads; tests move it between archives. */
  now: number;
  archive(codonId: string, target: ArchiveTarget, globs: string[]): Promise<ArchivePathsResult>;
  infos(): string[];
}

export function archiver(fx: WorkspaceFixture): Archiver {
  let next = 1;
  const state: Archiver = {
    events: [],
    now: FIXED_MS,
    archive: (codonId, target, globs) =>
      archivePaths(
        { codonId, runId: "run-1", target, globs, layout: fx.layout },
        {
          clock: { now: () => state.now },
          emit: (event) => state.events.push(event),
          newId: () => `e${next++}`,
        },
      ),
    infos: () => state.events.flatMap((e) => (e.type === "info" ? [e.data.message] : [])),
  };
  return state;
}

export const codon = (codonId: string): ArchiveTarget => ({ kind: "codon", codonId });

export const loopCodon = (loopId: string, iteration: number, runtimeId: string): ArchiveTarget => ({
  kind: "loop-codon",
  loopId,
  iteration,
  runtimeId,
});
