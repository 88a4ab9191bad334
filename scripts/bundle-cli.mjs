#!/usr/bin/env node
// Bundles the built CLI (dist/cli/main.js) and its dependencies into dist/cli/hankweave.js, the package's
// `bin`, and the chunks it loads on demand (the command modules the CLI imports dynamically, split by
// what they share). Loading a few files instead of several hundred modules (zod alone is over a
// hundred) takes about a third off every start, and splitting keeps a command from compiling what only
// other commands use (bench/README.md, cold start). The library entry points stay unbundled in dist/.
//
// Left outside the bundle: the agent SDKs and the lazily loaded dependencies (scripts/cli-externals.mjs).
// The bundle reads two files relative to itself: ../../package.json (the version) and ./catalog.json
// (the model catalog, copied here); a traced run starts ./trace-worker.js, a second entry point.
import { copyFileSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { build } from "esbuild";
import { CLI_EXTERNALS } from "./cli-externals.mjs";

const root = resolve(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8"));
const outdir = resolve(root, "dist", "cli");
/** The chunks the bin loads on demand sit beside it (see `CHUNK_PREFIX`). */
const CHUNK_PREFIX = "hankweave-chunk-";

/**
 * zod's `locales` namespace holds its error messages in some forty languages: 390 KB of the bundle,
 * compiled at every start. The CLI speaks English, zod's default: the namespace keeps only `en`.
 */
const englishOnlyZod = {
  name: "zod-english-only",
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}zod${sep}`)
        ? { path: resolve(args.resolveDir, "../locales/index.js"), namespace: "zod-locales" }
        : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

// Chunks of an earlier build: their names carry content hashes, so a new build never overwrites them.
for (const name of readdirSync(outdir)) {
  if (name.startsWith(CHUNK_PREFIX)) rmSync(resolve(outdir, name));
}

await build({
  // The tracing thread's entry (src/observability/trace-thread.ts) sits beside the chunk that starts
  // it, as dist/cli/trace-worker.js: a worker loads a file, not a part of a bundle.
  entryPoints: {
    hankweave: resolve(root, "dist", "cli", "main.js"),
    "trace-worker": resolve(root, "dist", "observability", "trace-worker.js"),
  },
  outdir,
  // Every command module the CLI imports dynamically becomes a chunk loaded when that command runs,
  // so `--validate` does not compile the server, the runner or the TUI. Chunks sit beside the bin,
  // so the files it reads relative to itself (the catalog, package.json, the web assets) resolve the
  // same from any chunk.
  splitting: true,
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
  external: [...Object.keys(pkg.peerDependencies ?? {}), ...CLI_EXTERNALS],
  plugins: [englishOnlyZod],
  // CommonJS dependencies (commander) call require() for Node built-ins, which an ES module lacks.
  banner: {
    js: "import { createRequire as __hankweaveRequire } from 'node:module';\nconst require = __hankweaveRequire(import.meta.url);",
  },
});
copyFileSync(
  resolve(root, "dist", "hank", "models", "catalog.json"),
  resolve(root, "dist", "cli", "catalog.json"),
);
