// Removes from dist/ the compiled outputs that the current build does not emit. tsc overwrites what it
// emits but never deletes, so without this step a source that was moved, deleted or excluded from the
// build (a test helper) would keep shipping from an earlier build's dist/.
//
// What the build emits: the root files of tsconfig.build.json (its include minus its exclude) and
// every local file they import, type-only imports included (tsc emits every file of its program).
// A test-only file that shipped code imports is therefore still emitted, and kept here; the dist
// contents test (test/package/dist-contents.test.ts) is what fails on it.
import { readdirSync, readFileSync, rmdirSync, rmSync, statSync } from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Outputs of tsc for one source: `x.ts` gives `x.js`, `x.js.map`, `x.d.ts` (and `x.d.ts.map`). */
const OUTPUT = /(\.d\.ts\.map|\.d\.ts|\.js\.map|\.js)$/;
/** Written by scripts/bundle-cli.mjs and scripts/bundle-web.mjs, not by tsc: no source of their own. */
const NOT_FROM_TSC = new Set([
  "cli/hankweave.cjs",
  "cli/hankweave.js",
  "cli/hankweave.cjs.map",
  "cli/trace-worker.js",
  "cli/trace-worker.js.map",
  "web/app.js",
]);
/** The bin's chunks (scripts/bundle-cli.mjs replaces them at every build). */
const CLI_CHUNK = /^cli[\\/]hankweave-chunk-[A-Z0-9]+\.js(\.map)?$/;

/** Prunes `<root>/dist`; returns the removed paths, relative to dist/. */
export function pruneStaleOutputs(root) {
  const src = resolve(root, "src");
  const dist = resolve(root, "dist");
  if (!isDirectory(dist)) return [];
  const emitted = emittedSources(resolve(root, "tsconfig.build.json"));
  const stems = new Set([...emitted].map((file) => relative(src, file).slice(0, -extname(file).length)));
  const removed = [];
  for (const file of filesUnder(dist)) {
    const rel = relative(dist, file);
    if (!OUTPUT.test(rel) || NOT_FROM_TSC.has(rel) || CLI_CHUNK.test(rel)) continue;
    if (stems.has(rel.replace(OUTPUT, ""))) continue;
    rmSync(file);
    removed.push(rel);
  }
  removeEmptyDirectories(dist);
  return removed;
}

/** The absolute paths of the sources tsc emits for `configPath`. */
function emittedSources(configPath) {
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(`prune-dist: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
    },
  });
  if (parsed === undefined || parsed.fileNames.length === 0) {
    throw new Error(`prune-dist: ${configPath} names no source files; refusing to prune dist/`);
  }
  const seen = new Set();
  const pending = parsed.fileNames.map((file) => resolve(file));
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      const target = localSource(dirname(file), fileName);
      if (target !== undefined) pending.push(target);
    }
  }
  return seen;
}

/** A relative import's source file (`./x.ts`, or `./x.js` written for `./x.ts`); undefined otherwise. */
function localSource(fromDir, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const target = resolve(fromDir, specifier);
  const candidates = [target, target.replace(/\.js$/, ".ts"), target.replace(/\.js$/, ".tsx")];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && isFile(candidate));
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function isDirectory(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Removes the directories that pruning left empty (dist/ itself stays). */
function removeEmptyDirectories(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const full = join(dir, entry.name);
    removeEmptyDirectories(full);
    if (readdirSync(full).length === 0) rmdirSync(full);
  }
}
