import { basename, join } from "node:path";

/**
 * The user-facing texts of the execution-directory decisions. Each refusal names what was found and
 * the flags that get past it; the hank-changed refusal lists exactly `-y`, `--start-new` and
 * `--start-new --force`, as the reference does.
 */

export function baseDirRefusal(baseDir: string): string {
  return (
    `${baseDir} is the executions base directory, which holds one directory per execution; it cannot be ` +
    "used as an execution directory itself (-e). Omit -e to create a new execution inside it, or pass a " +
    `subdirectory, e.g. -e ${join(baseDir, "my-run")}.`
  );
}

export function baseDirStartNewRefusal(baseDir: string): string {
  return (
    `${baseDir} is the executions base directory. The execution it holds can be resumed, but no new ` +
    "execution can be started there. Drop --start-new to resume it, or omit -e to create a new execution " +
    "inside it."
  );
}

export function notADirectoryRefusal(path: string): string {
  return `-e ${path} exists and is not a directory. Pass a directory (new, empty, or a previous execution).`;
}

export function stateExistsRefusal(dir: string): string {
  return (
    `${dir} already holds hankweave state (.hankweave/). Add --force to start over there: the old state ` +
    "is moved to .hankweave.backup-<timestamp> and agentRoot/ is wiped. Drop " +
    "--start-new to resume the existing execution instead."
  );
}

export function invalidStateRefusal(dir: string, problem: string): string {
  return (
    `${dir} has a .hankweave/ directory but no usable execution-meta.json (${problem}), so it cannot be ` +
    "resumed. Add --force to move it to .hankweave.backup-<timestamp> and start a new execution there, or " +
    "choose another directory."
  );
}

export function notEmptyQuestion(dir: string, entries: number): string {
  return `${dir} is not empty (${countEntries(entries)}) and holds no hankweave execution. Create an execution in it?`;
}

export function notEmptyRefusal(dir: string, entries: number, declined: boolean): string {
  const why = declined
    ? "Using it was not confirmed."
    : "Refusing to use it without confirmation in a non-interactive run.";
  return (
    `${dir} is not empty (${countEntries(entries)}) and holds no hankweave execution. ${why} Pass -y to ` +
    "use it anyway, or choose an empty or new directory with -e."
  );
}

export function dataChangedRefusal(dir: string, previousHash: string, currentHash: string): string {
  return (
    `The data source differs from the one execution ${basename(dir)} was created with (data hash ` +
    `${previousHash.slice(0, 8)}, now ${currentHash.slice(0, 8)}). Resuming would continue the work on ` +
    `different data. ${DATA_CHANGED_FIX}`
  );
}

/** The fix `dataChangedRefusal` ends with, in the CLI's flags. */
const DATA_CHANGED_FIX =
  "Add --force to resume it with the new data, or --start-new to start a new execution.";

/**
 * What an edit changed, in codon ids (loop codons included): `Codons added: c. Codons removed: b.`,
 * or that the codons are the same ones. Empty when the execution never recorded its codons.
 */
export function codonChange(before: readonly string[] | undefined, after: readonly string[]): string {
  if (before === undefined) return "";
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  if (added.length === 0 && removed.length === 0) {
    return " The codons are the same; their prompts or settings changed.";
  }
  const parts = [
    ...(added.length > 0 ? [`Codons added: ${added.join(", ")}.`] : []),
    ...(removed.length > 0 ? [`Codons removed: ${removed.join(", ")}.`] : []),
  ];
  return ` ${parts.join(" ")}`;
}

export function hankChangedQuestion(dir: string, hankPath: string, change = ""): string {
  return `The hank file ${hankPath} changed since execution ${basename(dir)} last ran.${change} Resume it with the changed hank?`;
}

export function hankChangedRefusal(dir: string, hankPath: string, declined: boolean, change = ""): string {
  const why = declined
    ? "Resuming with the changed hank was not confirmed."
    : "Not resuming without confirmation in a non-interactive run.";
  return [
    `The hank file ${hankPath} changed since execution ${basename(dir)} last ran.${change} ${why} Choose one:`,
    "  -y                   resume the execution with the changed hank",
    "  --start-new          start a new execution",
    "  --start-new --force  start over in this execution directory (old .hankweave/ backed up, agentRoot/ wiped)",
  ].join("\n");
}

function countEntries(entries: number): string {
  return entries === 1 ? "1 entry" : `${entries} entries`;
}
