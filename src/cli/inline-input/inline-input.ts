import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot } from "../../util/cache-root.ts";

/**
 * `-i/--input <text>` and `-` (stdin): inline data, content-addressed into the inputs cache so that
 * the same text is the same data source every time (same directory, same data hash), and a rerun with
 * the same input resumes its execution like a rerun with the same data directory does.
 *
 * The cache is `<HANKWEAVE_RUNTIME_CACHE_DIR or ~/.hankweave-cache>/inputs/<sha256>/input.txt`.
 */
export { CACHE_DIR_ENV } from "../../util/cache-root.ts";
export const INPUT_FILE_NAME = "input.txt";

/** Where inline data comes from: the `-i` text, or the process's standard input. */
export type InlineInput = { readonly kind: "text"; readonly text: string } | { readonly kind: "stdin" };

export function inputsCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  return join(cacheRoot(env), "inputs");
}

/**
 * Stores `content` under its sha256 and returns the directory holding it. An entry is written in a
 * temporary directory and renamed into place, so a reader never sees a half-written input; an entry
 * whose content no longer matches its name (edited by hand) is replaced.
 */
export function storeInput(content: Buffer, env: Readonly<Record<string, string | undefined>>): string {
  const digest = createHash("sha256").update(content).digest("hex");
  const cache = inputsCacheDir(env);
  const dir = join(cache, digest);
  if (holds(dir, digest)) return dir;
  mkdirSync(cache, { recursive: true });
  const staging = join(cache, `.${digest}.${process.pid}.${Date.now()}.tmp`);
  mkdirSync(staging);
  try {
    writeFileSync(join(staging, INPUT_FILE_NAME), content);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } catch (caught) {
    rmSync(staging, { recursive: true, force: true });
    // Another process stored the same content meanwhile: theirs is as good as ours.
    if (holds(dir, digest)) return dir;
    throw caught;
  }
  return dir;
}

function holds(dir: string, digest: string): boolean {
  const file = join(dir, INPUT_FILE_NAME);
  if (!existsSync(file)) return false;
  return createHash("sha256").update(readFileSync(file)).digest("hex") === digest;
}

/** Reads a stream to its end (stdin for `-`). */
export async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The data directory of an inline input: its cache entry. */
export async function materializeInput(
  input: InlineInput,
  env: Readonly<Record<string, string | undefined>>,
  stdin: AsyncIterable<Buffer | string>,
): Promise<string> {
  const content = input.kind === "text" ? Buffer.from(input.text, "utf8") : await readAll(stdin);
  return storeInput(content, env);
}
