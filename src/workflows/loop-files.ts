import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LoopHank, LoopStep } from "./loop-hank.ts";

export const HANK_FILE = "hank.json";

/** The loop's hank directory: `hank.json` and one input file per step. */
export interface LoopFiles {
  readonly hankDir: string;
  readonly hankPath: string;
  /** Replaces a step's input, read by the runtime when the step starts. */
  writeInput(step: LoopStep, text: string): void;
}

/**
 * Lays the loop's hank out in `hankDir`: `hank.json` (replaced atomically, and only when it changed, so
 * a durable directory's hank stays byte for byte what its execution was started with) and an input file
 * per step. The inputs are placeholders here: each is written just before its step starts, from the
 * journal (see `StepRelay`).
 */
export function layOutLoopFiles(hankDir: string, loop: LoopHank): LoopFiles {
  mkdirSync(join(hankDir, "prompts"), { recursive: true });
  const hankPath = join(hankDir, HANK_FILE);
  const hankText = `${JSON.stringify(loop.hank, null, 2)}\n`;
  if (!existsSync(hankPath) || readFileSync(hankPath, "utf8") !== hankText) replaceFile(hankPath, hankText);
  for (const step of loop.steps) {
    const path = join(hankDir, step.promptFile);
    if (!existsSync(path)) writeFileSync(path, "");
  }
  return {
    hankDir,
    hankPath,
    writeInput: (step, text) => rewriteFile(join(hankDir, step.promptFile), promptText(text)),
  };
}

/**
 * The file text that makes the runtime read exactly `text` as the prompt. A prompt file starting with a
 * `---` line would be read as front matter (a Markdown rule at the top of an answer often is one), so
 * such a text is written after a blank line, which the agent sees and the front matter reader does not.
 */
export function promptText(text: string): string {
  return /^---[ \t]*\r?(\n|$)/.test(text) ? `\n${text}` : text;
}

/**
 * Remove then write: a new file rather than a truncated one. ext4 flushes a file that is truncated and
 * written again when it is closed (its `auto_da_alloc` guard), which costs milliseconds per step; a new
 * file costs tens of microseconds. Not atomic, and it need not be: an input is rewritten from the
 * journal before every start of its step.
 */
function rewriteFile(path: string, text: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, text);
}

/** Write then rename: a reader sees the old or the new text, never a torn one. */
function replaceFile(path: string, text: string): void {
  const temp = join(dirname(path), `.${process.pid}.tmp`);
  writeFileSync(temp, text);
  renameSync(temp, path);
}
