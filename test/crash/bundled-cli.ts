import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";
import { CLI_EXTERNALS } from "../../scripts/cli-externals.mjs";
import { currentBuiltBin, REPO_ROOT } from "../fixtures/hankweave-cli.ts";

/**
 * The crash tests start the CLI dozens of times. From the sources through tsx each start costs seconds
 * on a loaded machine; a bundle of the current sources (made once per test file, as the package's bin
 * is made by scripts/bundle-cli.mjs) starts in a fraction of that and runs exactly the code under test.
 * It lives in a git-ignored directory of the repository, two levels down as dist/cli/ is, so its lazily
 * imported dependencies (ink, yaml...) resolve from node_modules and the files it reads beside and
 * above itself (catalog.json, ../../package.json) are found.
 */

/** Lazily imported modules that do not resolve (a face still being written) stay outside the bundle. */
const unresolvedStayExternal: Plugin = {
  name: "unresolved-stay-external",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.?\//, namespace: "file" }, async (args) => {
      if (args.pluginData === "retry") return undefined;
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "retry",
      });
      if (resolved.errors.length === 0 || args.kind !== "dynamic-import") return resolved;
      return { path: args.path, external: true };
    });
  },
};

export interface BundledCli {
  /** The bundle's path: run it with `node <path> <args>`. */
  readonly path: string;
  remove(): void;
}

/** The built bin when it is current (as in CI); else a bundle of the sources, made for this file. */
export async function bundleCli(): Promise<BundledCli> {
  const built = currentBuiltBin();
  if (built !== undefined) return { path: built, remove: () => undefined };
  const dir = mkdtempSync(join(REPO_ROOT, ".hankweave-test-bundle-"));
  mkdirSync(join(dir, "cli"));
  const path = join(dir, "cli", "hankweave.mjs");
  copyFileSync(join(REPO_ROOT, "src", "hank", "models", "catalog.json"), join(dir, "cli", "catalog.json"));
  await build({
    entryPoints: [join(REPO_ROOT, "src", "cli", "main.ts")],
    outfile: path,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
    external: CLI_EXTERNALS,
    plugins: [unresolvedStayExternal],
    banner: {
      js: "import { createRequire as __hankweaveRequire } from 'node:module';\nconst require = __hankweaveRequire(import.meta.url);",
    },
  });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
