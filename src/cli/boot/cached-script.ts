import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/** A CommonJS bundle to run with V8's code cache. */
export interface CachedScriptOptions {
  /**
   * The bundle: CommonJS, ASCII only (it is read as latin1, which skips UTF-8 decoding), its file name
   * carrying a hash of its content (`<name>-<hash>.cjs`): the name is the cache's key.
   */
  readonly file: string;
  /**
   * What this process is about to run (`validate`, `main`): each profile keeps its own cache, so a
   * start deserializes the code its command compiled, not every command's.
   */
  readonly profile: string;
  /** Where caches may be kept, in order of preference: the first readable file is used, the first writable directory written. */
  readonly cacheDirs: readonly string[];
  /** Parameters of the bundle's wrapper besides CommonJS's five, by name (identifiers). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface CachedScript {
  /** The bundle's `module.exports`. */
  readonly exports: unknown;
  /**
   * Keeps the code compiled so far (the bundle's top level and every function run since) for the next
   * start, when this start found no usable cache; later calls do nothing. Never throws: a cache that
   * cannot be written is skipped.
   */
  saveCache(): void;
}

/**
 * Runs a CommonJS bundle the way Node's CommonJS loader would, compiled through `vm.Script` so that
 * V8's code cache can be given and taken: Node 20 keeps no compile cache of its own, and compiling the
 * CLI's code is a large share of its start. The cache is never stale: its file name holds the bundle's
 * name (its content hash), the profile, the architecture, V8's version and node's flags, and V8 itself rejects a
 * cache made for other source text or flags (the bundle is then compiled as if there were none, and
 * the cache rewritten). Writes are atomic (a temporary file renamed into place).
 */
export function runCachedScript(options: CachedScriptOptions): CachedScript {
  const source = readFileSync(options.file, "latin1");
  const cacheName = `${basename(options.file)}.${options.profile}.${runtimeKey()}.cache`;
  const cached = readFirst(options.cacheDirs.map((dir) => join(dir, cacheName)));
  const names = Object.keys(options.parameters);
  // One line of wrapper before the source's first line keeps its line numbers in stack traces.
  const wrapper = `(function (exports, require, module, __filename, __dirname, ${names.join(", ")}) {"use strict";${withoutHashbang(source)}\n})`;
  const script = new Script(wrapper, {
    filename: options.file,
    ...(cached !== undefined && { cachedData: cached }),
  });
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as unknown };
  const require = createRequire(options.file);
  const args = [module.exports, require, module, options.file, dirname(options.file)];
  run.apply(module.exports, [...args, ...names.map((name) => options.parameters[name])]);
  let pending = cached === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports,
    saveCache: () => {
      if (!pending) return;
      pending = false;
      writeFirst(options.cacheDirs, cacheName, script.createCachedData(), options.file);
    },
  };
}

/**
 * What besides the source decides whether V8 takes a cache: the architecture, V8's version, and the
 * flags node was started with (V8 rejects a cache made under other flags, `--max-old-space-size` for
 * one). The flags go in as a short hash, so that starts with and without them keep a cache each
 * instead of rewriting one another's.
 */
function runtimeKey(): string {
  const flags = `${process.execArgv.join(" ")}\0${process.env.NODE_OPTIONS ?? ""}`;
  return `${process.arch}-v8-${process.versions.v8}-${fnv1a(flags)}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: a file-name key, not a digest (V8 checks what it loads). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** A `#!` first line is a comment only at the very start of a file; inside the wrapper it must go. */
function withoutHashbang(source: string): string {
  return source.startsWith("#!") ? `//${source.slice(2)}` : source;
}

function readFirst(paths: readonly string[]): Buffer | undefined {
  for (const path of paths) {
    try {
      return readFileSync(path);
    } catch {
      // Absent or unreadable: the next place, else no cache.
    }
  }
  return undefined;
}

/** Writes the cache into the first directory that takes it, replacing the caches of earlier bundles there. */
function writeFirst(dirs: readonly string[], name: string, data: Buffer, bundle: string): void {
  for (const dir of dirs) {
    const target = join(dir, name);
    const temporary = `${target}.${process.pid}.tmp`;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(temporary, data);
      renameSync(temporary, target);
    } catch {
      removeQuietly(temporary);
      continue;
    }
    removeStale(dir, bundle);
    return;
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing was written there (a file in the way of the directory, say).
  }
}

/** Caches of another build of the same bundle (`<name>-<other hash>.cjs.*.cache`) are dead weight. */
function removeStale(dir: string, bundle: string): void {
  const file = basename(bundle);
  const stem = file.slice(0, file.lastIndexOf("-") + 1);
  try {
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith(stem) && entry.endsWith(".cache") && !entry.startsWith(`${file}.`)) {
        removeQuietly(join(dir, entry));
      }
    }
  } catch {
    // Left for a later write to remove.
  }
}
