import { accessSync, constants, type Stats, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fsErrorCode, fsErrorText } from "./fs-error-text.ts";

/**
 * Why the output directory (`-o`) could not receive a codon's outputs, checked when the run starts so
 * that a mistyped path shows before the first codon instead of failing a codon that already did its
 * work: an existing path that is not a directory, a path through a file, or a directory (for a new
 * one, its nearest existing parent, where it will be created) this process cannot write to.
 * Undefined when the outputs can go there. Nothing is created.
 */
export function outputDirProblem(outputDir: string): string | undefined {
  const target = resolve(outputDir);
  const fix = "Fix: pass -o a directory you can write to (it is created when missing).";
  for (let probe = target; ; probe = dirname(probe)) {
    const stats = statOrMissing(probe);
    if (stats === "missing") {
      if (dirname(probe) === probe) return `The output directory ${target} (-o) cannot be created. ${fix}`;
      continue;
    }
    if (typeof stats === "string")
      return `The output directory ${target} (-o) cannot be checked: ${stats}. ${fix}`;
    if (!stats.isDirectory()) {
      const what = probe === target ? "is a file, not a directory" : `cannot be created: ${probe} is a file`;
      return `The output directory ${target} (-o) ${what}. ${fix}`;
    }
    try {
      accessSync(probe, constants.W_OK);
    } catch {
      const where = probe === target ? "" : ` (it would be created in ${probe})`;
      return `The output directory ${target} (-o) is not writable${where}. ${fix}`;
    }
    return undefined;
  }
}

/** The path's stats; `missing` when it (or a parent component) does not exist; else the error's text. */
function statOrMissing(path: string): Stats | "missing" | string {
  try {
    return statSync(path);
  } catch (error) {
    const code = fsErrorCode(error);
    return code === "ENOENT" || code === "ENOTDIR" ? "missing" : fsErrorText(error);
  }
}
