import { mkdir, realpath } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import type { OutputFileGroup } from "../../hank/schema/index.ts";
import { unixSecondsOf } from "./conflict-name.ts";
import { fsErrorText } from "./fs-error-text.ts";
import type {
  CopiedOutput,
  CopyOutputFilesDeps,
  CopyOutputFilesInput,
  CopyOutputFilesResult,
  OutputFailure,
  OutputProblem,
  RenamedOutput,
} from "./output-types.ts";
import { placeEntry } from "./place-entry.ts";
import { runBeforeCopy } from "./run-before-copy.ts";
import { scanWorkspace, type WorkspaceScan, workspaceGlobProblem } from "./workspace-scan.ts";

/**
 * Copies a codon's `outputFiles` to the output directory after it succeeded (reference 1.6). Group by
 * group: the `beforeCopy` commands run in agentRoot (bash, the codon's environment, own process
 * group), then the `copy` globs are resolved against agentRoot (never following a link, never
 * entering the data link, rigArchive or .hankweave) and the matches are copied keeping their
 * agentRoot-relative paths, links as links. A taken name gets `name_<n>_<unixSeconds>.ext` unless
 * `overwrite`. A glob matching nothing is reported, not fatal; a failing command or copy stops
 * everything and comes back as `failure` (the engine then fails the run, exit 1). Files already
 * copied by an earlier group of the same call are not copied twice. Never throws for what the hank,
 * the commands or the disk did; a relative `outputDir` is a bug and throws.
 */
export async function copyOutputFiles(
  input: CopyOutputFilesInput,
  deps: CopyOutputFilesDeps,
): Promise<CopyOutputFilesResult> {
  if (!isAbsolute(input.outputDir)) {
    throw new Error(`copyOutputFiles: outputDir must be absolute, got "${input.outputDir}"`);
  }
  const acc: Accumulated = { copied: [], renamed: [], problems: [], seen: new Set() };
  if (input.groups.length === 0) return result(acc, "ok");
  const invalid = invalidGlobFailure(input);
  if (invalid !== null) return result(acc, invalid);
  const root = await prepareOutputDir(input.outputDir);
  if (typeof root !== "string") return result(acc, root);
  for (const [index, group] of input.groups.entries()) {
    const stop = await copyGroup({ input, deps, acc, root, group, index });
    if (stop !== null) return result(acc, stop);
  }
  info(deps, summaryMessage(input, acc.copied.length));
  return result(acc, "ok");
}

interface Accumulated {
  readonly copied: CopiedOutput[];
  readonly renamed: RenamedOutput[];
  readonly problems: OutputProblem[];
  /** agentRoot-relative paths copied so far in this call. */
  readonly seen: Set<string>;
}

interface GroupRun {
  readonly input: CopyOutputFilesInput;
  readonly deps: CopyOutputFilesDeps;
  readonly acc: Accumulated;
  /** The output directory with links resolved: every copy must land inside it. */
  readonly root: string;
  readonly group: OutputFileGroup;
  readonly index: number;
}

type Stop = OutputFailure | "aborted" | null;

async function copyGroup(run: GroupRun): Promise<Stop> {
  const stopped = await runCommands(run);
  if (stopped !== null) return stopped;
  const { input, deps } = run;
  const scan = await scanWorkspace(input.agentRoot, run.group.copy, [input.outputDir, run.root]);
  const unreadable = scan.unreadable[0];
  if (unreadable !== undefined) {
    const message = `Cannot read "${unreadable.path}" in agentRoot to copy output files: ${unreadable.error}`;
    return { kind: "copy", groupIndex: run.index, message };
  }
  reportProblems(run, scan);
  for (const match of scan.matches) {
    if (deps.signal.aborted) return "aborted";
    if (run.acc.seen.has(match.path)) continue;
    const stop = await copyOne(run, match);
    if (stop !== null) return stop;
  }
  return null;
}

async function runCommands(run: GroupRun): Promise<Stop> {
  const commands = run.group.beforeCopy ?? [];
  const { input, deps } = run;
  for (const [i, command] of commands.entries()) {
    if (deps.signal.aborted) return "aborted";
    const what = `beforeCopy command ${i + 1}/${commands.length} for codon '${input.codonId}'`;
    info(deps, `Running ${what}: ${command.command.run}`);
    const outcome = await runBeforeCopy(command.command.run, {
      cwd: input.agentRoot,
      env: input.env,
      clock: deps.clock,
      signal: deps.signal,
      ...(input.commandTimeoutMs === undefined ? {} : { timeoutMs: input.commandTimeoutMs }),
      ...(deps.killGraceMs === undefined ? {} : { killGraceMs: deps.killGraceMs }),
    });
    if (outcome.kind === "aborted") return "aborted";
    if (outcome.kind === "failed") {
      return {
        kind: "before-copy",
        groupIndex: run.index,
        message: outcome.message,
        ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
        outputTail: outcome.outputTail,
      };
    }
  }
  return null;
}

function reportProblems(run: GroupRun, scan: WorkspaceScan): void {
  const add = (problem: OutputProblem): void => {
    run.acc.problems.push(problem);
    info(run.deps, problem.message);
  };
  for (const glob of scan.unmatchedGlobs) {
    const message = `Output pattern "${glob}" matched no files in agentRoot`;
    add({ kind: "no-match", groupIndex: run.index, subject: glob, message });
  }
  for (const { path, reason } of scan.skipped) {
    add({
      kind: "skipped",
      groupIndex: run.index,
      subject: path,
      message: `Not copying "${path}": it ${reason}`,
    });
  }
}

async function copyOne(run: GroupRun, match: { path: string; kind: "file" | "symlink" }): Promise<Stop> {
  const { input, deps, acc } = run;
  const placed = await placeEntry({
    source: join(input.agentRoot, match.path),
    kind: match.kind,
    destRoot: run.root,
    destPath: match.path,
    mode: "copy",
    onConflict: input.overwrite ? "overwrite" : "rename",
    unixSeconds: unixSecondsOf(deps.clock.now()),
  });
  if (!placed.ok) {
    const message = `Failed to copy output file "${match.path}" to ${input.outputDir}: ${placed.error}`;
    return { kind: "copy", groupIndex: run.index, message };
  }
  acc.seen.add(match.path);
  acc.copied.push({ from: match.path, to: placed.to });
  if (placed.to !== match.path) {
    acc.renamed.push({ intended: match.path, to: placed.to });
    info(deps, `Output file "${match.path}" already exists in ${input.outputDir}; copied as "${placed.to}"`);
  }
  return null;
}

function invalidGlobFailure(input: CopyOutputFilesInput): OutputFailure | null {
  for (const [index, group] of input.groups.entries()) {
    const problem = workspaceGlobProblem(group.copy);
    if (problem === null) continue;
    const message = `Invalid outputFiles pattern for codon '${input.codonId}': ${problem}`;
    return { kind: "invalid-glob", groupIndex: index, message };
  }
  return null;
}

/** Creates the output directory and returns its real path, or the failure. */
async function prepareOutputDir(outputDir: string): Promise<string | OutputFailure> {
  try {
    await mkdir(outputDir, { recursive: true });
    return await realpath(outputDir);
  } catch (error) {
    const message = `Cannot create output directory ${outputDir}: ${fsErrorText(error)}`;
    return { kind: "copy", groupIndex: -1, message };
  }
}

function summaryMessage(input: CopyOutputFilesInput, count: number): string {
  if (count === 0) return `No output files copied for codon '${input.codonId}'`;
  const files = count === 1 ? "1 output file" : `${count} output files`;
  return `Copied ${files} for codon '${input.codonId}' to ${input.outputDir}`;
}

function result(acc: Accumulated, end: "ok" | "aborted" | OutputFailure): CopyOutputFilesResult {
  return {
    ok: end === "ok",
    aborted: end === "aborted",
    copied: acc.copied,
    renamed: acc.renamed,
    problems: acc.problems,
    failure: typeof end === "string" ? null : end,
  };
}

function info(deps: CopyOutputFilesDeps, message: string): void {
  deps.emit({ type: "info", data: { message } });
}
