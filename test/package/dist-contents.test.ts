import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";

/**
 * What `npm run build` leaves in dist/, the directory the package ships: the library, the bin and the
 * public test kit (`hankweave/testing`), and no test-only module (tests, test-support files, test kits,
 * fixtures). Test helpers reach users only through the kit, which lives under src/testing/. Like the
 * built-bin tests, these need a build first.
 */
const ROOT = resolve(import.meta.dirname, "..", "..");
const DIST = join(ROOT, "dist");
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  exports: Record<string, string | Record<string, string>>;
};

/** The names tsconfig.build.json excludes; a dist file with one of them was emitted from a test-only source. */
const TEST_ONLY = [/\.test\./, /(^|\/)test-[^/]*$/, /-test-support\./, /(^|\/)fixtures\//];
/**
 * Written by scripts/bundle-cli.mjs, scripts/copy-assets.mjs and scripts/bundle-web.mjs (the web app's
 * bundle, from src/web/main.tsx), not compiled from a source of the same name.
 */
const NOT_COMPILED = new Set([
  "cli/hankweave.cjs",
  "cli/hankweave.js",
  "cli/hankweave.cjs.map",
  "cli/trace-worker.js",
  "cli/trace-worker.js.map",
  "cli/catalog.json",
  "web/app.js",
]);
/**
 * Modules the build writes beside the bin (scripts/bundle-cli.mjs): a dependency bundled into an ES
 * module of its own (`hankweave-vendor-<name>-<hash>.js`), loaded when a command imports it.
 */
const CLI_VENDORED = /^cli\/hankweave-vendor-[a-z0-9-]+-[A-Z0-9]+\.js(\.map)?$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [relative(DIST, full)];
  });
}

describe("the built dist/", () => {
  let files: string[] = [];
  before(() => {
    assert.ok(existsSync(DIST), "dist/ is missing: run `npm run build` before the tests");
    files = filesUnder(DIST);
  });

  it("holds no test-only module", () => {
    const leaked = files.filter((file) => TEST_ONLY.some((pattern) => pattern.test(file)));
    assert.deepEqual(leaked, [], "test-only files in dist/: exclude them in tsconfig.build.json");
  });

  it("holds only outputs of sources that still exist", () => {
    const stale = files.filter((file) => {
      if (NOT_COMPILED.has(file) || CLI_VENDORED.test(file) || !/\.(js|d\.ts)$/.test(file)) return false;
      const stem = join(ROOT, "src", file.replace(/(\.d\.ts|\.js)$/, ""));
      return !existsSync(`${stem}.ts`) && !existsSync(`${stem}.tsx`) && !existsSync(`${stem}.json`);
    });
    assert.deepEqual(
      stale,
      [],
      "dist/ files without a source: scripts/prune-dist.mjs should have removed them",
    );
  });

  it("has every file the package's exports name", () => {
    const targets = Object.values(PACKAGE.exports).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target),
    );
    const missing = targets.filter((target) => !existsSync(join(ROOT, target)));
    assert.deepEqual(missing, []);
  });

  it("loads hankweave/testing, with the checkpointer conformance suite", async () => {
    const kit = (await import(pathToFileURL(join(DIST, "testing", "index.js")).href)) as Record<
      string,
      unknown
    >;
    for (const name of ["runCheckpointerConformance", "runHarnessConformance", "runHankForTest"]) {
      assert.equal(typeof kit[name], "function", `hankweave/testing exports ${name}`);
    }
  });
});
