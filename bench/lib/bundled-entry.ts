import { copyFileSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { buildSync } from "esbuild";

const bundles = new Map<string, string>();

/**
 * A bench worker's entry (TypeScript) as one compiled ES module, made once per bench run: the workers
 * run JavaScript, as a user's process does, not TypeScript through tsx. tsx compiles in a loader that
 * runs in a second V8 isolate and keeps what it compiled: 45-70 MB of a worker's peak RSS (a
 * 10,000-iteration loop with the journal: 204-230 MB under tsx, 157 MB bundled), and nothing
 * measurable in its times (engine case, 3 interleaved pairs).
 *
 * The bundle goes to `node_modules/.cache/hankweave-bench/`, so the packages, left external, resolve
 * from the repository's `node_modules` as they do for the library; the model catalog, which the sources
 * read beside their own module, is copied beside it.
 */
export function bundledEntry(repoRoot: string, entry: string): string {
  const done = bundles.get(entry);
  if (done !== undefined) return done;
  const dir = join(repoRoot, "node_modules", ".cache", "hankweave-bench");
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, basename(entry).replace(/\.ts$/, ".mjs"));
  buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  copyFileSync(join(repoRoot, "src", "hank", "models", "catalog.json"), join(dir, "catalog.json"));
  bundles.set(entry, outfile);
  return outfile;
}
