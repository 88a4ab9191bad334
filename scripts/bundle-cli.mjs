#!/usr/bin/env node
// Bundles the built CLI (dist/cli/main.js) and its dependencies into one file, dist/cli/hankweave.js,
// the package's `bin`. Loading one file instead of several hundred modules (zod alone is over a
// hundred) takes about a third off every start (bench/README.md, cold start). The library entry points
// stay unbundled in dist/.
//
// Left outside the bundle: the agent SDKs and the lazily loaded dependencies (scripts/cli-externals.mjs).
// The bundle reads two files relative to itself: ../../package.json (the version) and ./catalog.json
// (the model catalog, copied here).
import { copyFileSync, readFileSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { build } from "esbuild";
import { CLI_EXTERNALS } from "./cli-externals.mjs";

const root = resolve(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8"));
const outfile = resolve(root, "dist", "cli", "hankweave.js");

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

await build({
  entryPoints: [resolve(root, "dist", "cli", "main.js")],
  outfile,
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
