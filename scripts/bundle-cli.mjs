#!/usr/bin/env node
// Bundles the built CLI (dist/cli/main.js) and its dependencies into one file, dist/cli/hankweave.js,
// the package's `bin`. Loading one file instead of several hundred modules (zod alone is over a
// hundred) takes about a third off every start (bench/README.md, cold start). The library entry points
// stay unbundled in dist/.
//
// Left outside the bundle:
// - the optional agent SDKs (peer dependencies): loaded lazily, only when a codon needs them, from the
//   user's own install;
// - yaml: loaded lazily (createRequire) on the first prompt with frontmatter;
// - the terminal UI (ink, react), the Loops store (libsql, a native module, and kysely) and croner:
//   loaded lazily (dynamic import) by the commands that need them, from node_modules.
// The bundle reads two files relative to itself: ../../package.json (the version) and ./catalog.json
// (the model catalog, copied here).
import { copyFileSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");
const LAZY_DEPENDENCIES = ["ink", "react", "libsql", "kysely", "croner"];
const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8"));
const outfile = resolve(root, "dist", "cli", "hankweave.js");

await build({
  entryPoints: [resolve(root, "dist", "cli", "main.js")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
  external: [...Object.keys(pkg.peerDependencies ?? {}), "yaml", ...LAZY_DEPENDENCIES],
  // CommonJS dependencies (commander) call require() for Node built-ins, which an ES module lacks.
  banner: {
    js: "import { createRequire as __hankweaveRequire } from 'node:module';\nconst require = __hankweaveRequire(import.meta.url);",
  },
});
copyFileSync(
  resolve(root, "dist", "hank", "models", "catalog.json"),
  resolve(root, "dist", "cli", "catalog.json"),
);
