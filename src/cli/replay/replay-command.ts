import type { HankFile } from "../../hank/schema/index.ts";
import type { HarnessRegistry } from "../../harness/index.ts";
import { createReplayHarness } from "../../harness/replay/index.ts";
import { loadValidatedHank } from "../../runner/index.ts";
import { readExecutionMeta } from "../../workspace/execution/index.ts";
import { executionLayout } from "../../workspace/execution-layout.ts";
import type { CliOptions } from "../cli-options.ts";
import type { RenderOptions } from "../render/style.ts";
import { type RunIo, runHankCommand } from "../run/run-command.ts";
import { loadRecording } from "./load-recording.ts";

/**
 * `hankweave --replay <execution>`: runs the hank again as a fresh execution in which the replay
 * harness answers every codon from the recording (see harness/replay). The hank and the data default
 * to the recording's own (its execution-meta.json); a hank whose codon ids differ from the recorded
 * ones is refused with the differences.
 */
export async function runReplayCommand(
  recordingDir: string,
  options: CliOptions,
  io: RunIo,
  render: RenderOptions,
): Promise<number> {
  const loaded = await loadRecording(recordingDir);
  if (!loaded.ok) return fail(io, loaded.message);
  const sources = sourcesOf(recordingDir, options);
  if (typeof sources === "string") return fail(io, sources);
  const hank = loadValidatedHank({ hank: sources.hankPath, cwd: io.cwd, env: io.env });
  if (hank.ok) {
    const mismatch = codonMismatch(hank.hank, loaded.codonIds);
    if (mismatch !== undefined)
      return fail(io, `The recording ${recordingDir} does not match the hank ${hank.hankPath}:\n${mismatch}`);
  }
  io.stderr.write(
    `[REPLAY] Replaying run ${loaded.runId} of ${recordingDir} (${loaded.recording.sessions.size} sessions)\n`,
  );
  const replay = createReplayHarness(loaded.recording);
  const harnesses: HarnessRegistry = { forModel: () => replay };
  const replayOptions: CliOptions = { ...options, ...sources, hankFrom: "argument", startNew: true };
  return runHankCommand(replayOptions, io, render, { harnesses });
}

/** The hank and data: as given, else the recording's. */
function sourcesOf(
  recordingDir: string,
  options: CliOptions,
): { hankPath: string; dataPath: string } | string {
  const meta = readExecutionMeta(executionLayout(recordingDir).metaPath);
  if (meta.status !== "ok") {
    const why = meta.status === "missing" ? "it has no .hankweave/execution-meta.json" : meta.message;
    return `Cannot replay ${recordingDir}: ${why}`;
  }
  return {
    hankPath: options.hankFrom === "argument" ? options.hankPath : meta.meta.hankPath,
    dataPath: options.dataPath ?? meta.meta.resolvedSourceDataPath,
  };
}

/** The differences between the hank's codon ids and the recorded ones (loop iterations count once). */
function codonMismatch(hank: HankFile, recordedRuntimeIds: readonly string[]): string | undefined {
  const hankIds = new Set(
    hank.hank.flatMap((item) => (item.type === "loop" ? item.codons.map((codon) => codon.id) : [item.id])),
  );
  const recorded = new Set(recordedRuntimeIds.map((id) => id.replace(/#\d+$/, "")));
  const onlyRecorded = [...recorded].filter((id) => !hankIds.has(id));
  const onlyHank = [...hankIds].filter((id) => !recorded.has(id));
  if (onlyRecorded.length === 0 && onlyHank.length === 0) return undefined;
  const lines: string[] = [];
  if (onlyRecorded.length > 0) lines.push(`  recorded but not in the hank: ${onlyRecorded.join(", ")}`);
  if (onlyHank.length > 0) lines.push(`  in the hank but not recorded: ${onlyHank.join(", ")}`);
  return lines.join("\n");
}

function fail(io: RunIo, message: string): number {
  io.stderr.write(`✗ ${message}\n`);
  return 1;
}
