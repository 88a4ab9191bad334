import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { HeldPrompts } from "../hank/prompt.ts";
import type { LoopHank, LoopStep } from "./loop-hank.ts";

export const HANK_FILE = "hank.json";

/** The loop's hank directory: `hank.json` and one input file per step. */
export interface LoopFiles {
  readonly hankDir: string;
  readonly hankPath: string;
  /** Replaces a step's input, read by the runtime when the step starts. */
  writeInput(step: LoopStep, text: string): void;
  /** The inputs written so far, for the runtime to read instead of their files. */
  readonly held: HeldPrompts;
}

/**
 * Lays the loop's hank out in `hankDir`: `hank.json` (replaced atomically, and only when it changed, so
 * a durable directory's hank stays byte for byte what its execution was started with) and an input file
 * per step. The inputs are placeholders here: each is written just before its step starts, from the
 * journal (see `StepRelay`).
 *
 * Every input is handed to the runtime through `held`, which reads it exactly as it would read the
 * file, so no step reads its input back from disk. With `holdInputs` (a transient loop: nothing of it
 * outlives the process) the file is not written either; a durable loop writes it, so that its
 * directory shows what each step was given.
 */
export function layOutLoopFiles(hankDir: string, loop: LoopHank, holdInputs = false): LoopFiles {
  mkdirSync(join(hankDir, "prompts"), { recursive: true });
  const hankPath = join(hankDir, HANK_FILE);
  const hankText = `${JSON.stringify(loop.hank, null, 2)}\n`;
  if (!existsSync(hankPath) || readFileSync(hankPath, "utf8") !== hankText) replaceFile(hankPath, hankText);
  for (const step of loop.steps) {
    const path = join(hankDir, step.promptFile);
    if (!existsSync(path)) writeFileSync(path, "");
  }
  // The runtime reads each input from memory; a durable loop also writes it to its file, where a
  // person inspecting the directory finds it, but never reads it back (the text is the same).
  const inputs = new Map<string, string>();
  return {
    hankDir,
    hankPath,
    writeInput: (step, text) => {
      const content = promptText(text);
      if (!holdInputs) rewriteFile(join(hankDir, step.promptFile), content);
      inputs.set(step.promptFile, content);
    },
    held: (ref) => inputs.get(ref),
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
 * Overwrite in place, then cut the file to the new length. Not a truncating write: ext4 flushes a file
 * truncated to nothing and written again when it is closed (its `auto_da_alloc` guard), which costs
 * milliseconds per step; nor remove-then-create, whose unlink costs several times this on a filesystem
 * mounted with `discard`. Not atomic, and it need not be: an input is rewritten from the journal before
 * every start of its step.
 */
function rewriteFile(path: string, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let fd: number;
  try {
    fd = openSync(path, "r+");
  } catch {
    writeFileSync(path, bytes);
    return;
  }
  try {
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, done);
    ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

/** Write then rename: a reader sees the old or the new text, never a torn one. */
function replaceFile(path: string, text: string): void {
  const temp = join(dirname(path), `.${process.pid}.tmp`);
  writeFileSync(temp, text);
  renameSync(temp, path);
}
