#!/usr/bin/env node
// The built `hankweave` binary (dist/cli/hankweave.cjs, made by scripts/bundle-cli.mjs): runs the CLI's
// CommonJS bundle, which sits beside it, with V8's code cache, and hands it what an ES module has and a
// script compiled by `vm` lacks: `import.meta` (this file's) and `import()` (the lazily loaded
// dependencies, which the build points at `host.import`). The bin is CommonJS itself because Node starts
// a CommonJS entry without its ES-module loader, about 7 ms sooner than an ES module (the loader loads
// only when a command imports an ES module or resolves a specifier). This file is written as an ES
// module and built into CommonJS; `import.meta.url` is then this file's URL (the build defines it).
import * as nodeModule from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot } from "../../util/cache-root.ts";
import type { StartHooks } from "../start-cli.ts";
import { runCachedScript } from "./cached-script.ts";

/** The bundle's file name, `hankweave-cli-<content hash>.cjs`, written in by the build. */
declare const HANKWEAVE_CLI_BUNDLE: string;
/**
 * Dependencies the build bundled into ES modules of their own beside this file, by name: the module
 * to import instead of the package (`{ kysely: "./hankweave-vendor-kysely-<hash>.js" }`).
 */
declare const HANKWEAVE_VENDORED: Readonly<Record<string, string>>;

/** What the bundle finds in its wrapper's `__hankweaveHost` parameter. */
export interface BundleHost {
  readonly url: string;
  resolve(specifier: string): string;
  import(specifier: string): Promise<unknown>;
}

/** The ES module that resolves specifiers for the bin (src/cli/boot/esm-resolve.ts), beside it. */
const RESOLVER = "./boot/esm-resolve.js";
type Resolver = typeof import("./esm-resolve.ts");

// On Node 22.1 and later, V8 also keeps the code of the ES modules loaded later (the agent SDKs, the
// terminal UI) in Node's on-disk compile cache (NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has
// no such cache: the call is absent there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const here = dirname(fileURLToPath(import.meta.url));
const requireHere = nodeModule.createRequire(import.meta.url);

/**
 * The resolver, loaded when first asked for: through `require` where Node can require an ES module
 * (20.19, 22.12 and later), else imported before the CLI starts (then the ES-module loader is paid at
 * every start, as by an ES-module bin).
 */
async function loadResolver(): Promise<() => Resolver> {
  if ((process.features as { require_module?: boolean }).require_module === true) {
    let loaded: Resolver | undefined;
    return () => {
      loaded ??= requireHere(RESOLVER) as Resolver;
      return loaded;
    };
  }
  const imported = (await import(RESOLVER)) as Resolver;
  return () => imported;
}

async function main(): Promise<number> {
  const resolver = await loadResolver();
  const host: BundleHost = {
    url: import.meta.url,
    resolve: (specifier) => resolver().resolveModule(specifier),
    import: (specifier) => import(HANKWEAVE_VENDORED[specifier] ?? specifier),
  };
  const cli = runCachedScript({
    file: join(here, HANKWEAVE_CLI_BUNDLE),
    profile: process.argv.includes("--validate") ? "validate" : "main",
    // Beside the bundle; a global install that is not the user's to write falls back to the user's cache.
    cacheDirs: [join(here, ".v8-cache"), join(cacheRoot(process.env), "v8-cache")],
    parameters: { __hankweaveHost: host },
  });
  const { startCli } = cli.exports as { startCli(hooks: StartHooks): Promise<number> };
  return startCli({ startupDone: cli.saveCache });
}

void main().then((code) => {
  process.exitCode = code;
});
