import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before } from "node:test";
import type { Plugin } from "esbuild";
import { type BundledEntry, bundleEntry } from "../fixtures/bundle-entry.ts";
import { currentBuiltBin, REPO_ROOT } from "../fixtures/hankweave-cli.ts";
import { type Sandbox, sandbox } from "../workspace/support.ts";

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

export type BundledCli = BundledEntry;

/** The built bin when it is current (as in CI); else a bundle of the sources, made for this file. */
export async function bundleCli(): Promise<BundledEntry> {
  const built = currentBuiltBin();
  if (built !== undefined) return { path: built, remove: () => undefined };
  return bundleEntry(join(REPO_ROOT, "src", "cli", "main.ts"), "bundle", [unresolvedStayExternal]);
}

/**
 * For a `describe` block whose tests run the CLI in a sandbox: the sandbox, the environment that keeps
 * executions in it, and the CLI's path once the block's `before` has made it; both removed after.
 */
export function cliSandbox(prefix: string): {
  readonly box: Sandbox;
  readonly env: Readonly<Record<string, string>>;
  readonly bin: () => string;
} {
  const box = sandbox(prefix);
  let cli: BundledCli | undefined;
  before(async () => {
    cli = await bundleCli();
  });
  after(() => {
    cli?.remove();
    box.remove();
  });
  return {
    box,
    env: { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: box.executions },
    bin: () => cli?.path ?? assert.fail("the CLI is made in the block's before hook"),
  };
}
