#!/usr/bin/env node
// Bundles the built CLI and its dependencies for the package's `bin` (dist/cli/hankweave.cjs):
// - dist/cli/hankweave-cli-<hash>.cjs: the whole CLI (dist/cli/start-cli.js and what it imports) as
//   one CommonJS script. The bin runs it through `vm.Script` with V8's code cache
//   (src/cli/boot/cached-script.ts), which Node 20 offers for scripts only, not for ES modules:
//   compiling the CLI's code was a large share of every start (bench/README.md, cold start). The
//   modules a command imports dynamically stay lazy: esbuild wraps each in a function run on first
//   import, so `--validate` evaluates neither the runner, the server nor the TUI.
// - dist/cli/hankweave.cjs: the bin (src/cli/boot/bin.ts), a small CommonJS script that loads the script
//   (and dist/cli/hankweave.js, its former path, which runs it).
// - dist/cli/trace-worker.js: the tracing thread's entry (a worker loads a file of its own).
// The library entry points stay unbundled in dist/.
//
// Left outside the bundle: the agent SDKs and the lazily loaded dependencies (scripts/cli-externals.mjs).
// The bundle reads two files relative to itself: ../../package.json (the version) and ./catalog.json
// (the model catalog, copied here).
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve, sep } from "node:path";
import { build } from "esbuild";
import { CLI_EXTERNALS } from "./cli-externals.mjs";

const root = resolve(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8"));
const outdir = resolve(root, "dist", "cli");
const external = [...Object.keys(pkg.peerDependencies ?? {}), ...CLI_EXTERNALS];
/**
 * Dependencies bundled into ES modules beside the bin (`hankweave-vendor-<name>-<hash>.js`), which the
 * script's `import("<name>")` loads instead of node_modules, a group at a time: the packages of a group
 * share what they have in common (one React for ink and our views). Each name says what its module
 * exports: `named` (an ES module package), or `default` (a CommonJS package's `module.exports`).
 * - kysely, which only the Loops store uses: in the script its 630 KB would be read, and its top level
 *   deserialized, by every start (about 10 ms of `--validate`); from node_modules it is some 280
 *   modules to resolve (about 120 ms of a `loops` start).
 * - the terminal UI's ink and React, as React's production build: from node_modules, some 300 modules
 *   and React's development build, about 450 ms before the TUI's first frame; bundled, about 100 ms.
 *   `react-devtools-core` stays external: ink loads it only under `DEV=true`.
 */
const VENDOR_GROUPS = [{ kysely: "named" }, { ink: "named", react: "default" }];
const VENDORED = VENDOR_GROUPS.flatMap((group) => Object.keys(group));
const VENDOR_PREFIX = "hankweave-vendor-";
/** CommonJS dependencies call require() for Node built-ins, which an ES module lacks: it gets one. */
const REQUIRE_BANNER = {
  js: "import { createRequire as __hankweaveRequire } from 'node:module';\nconst require = __hankweaveRequire(import.meta.url);",
};
/** The bin's own URL, which its ES-module source reads as `import.meta.url`. */
const BIN_URL = "__hankweaveBinUrl";
const BIN_URL_BANNER = `const ${BIN_URL} = require("node:url").pathToFileURL(__filename).href;`;
/** The script's file name starts so; the rest is its content hash. */
const SCRIPT_PREFIX = "hankweave-cli-";
/** The name the bin's wrapper gives its host object (src/cli/boot/bin.ts). */
const HOST = "__hankweaveHost";
/** `import("<specifier>")`, not a member call such as `x.import("...")`. */
const DYNAMIC_IMPORT = /(?<![\w$.])import\("([^"\\]+)"\)/g;

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

// Files of an earlier build: the scripts' names carry content hashes, so a new build never overwrites
// them; the chunks are those of the ES-module build this one replaced.
for (const name of readdirSync(outdir)) {
  if ([SCRIPT_PREFIX, VENDOR_PREFIX, "hankweave-chunk-"].some((prefix) => name.startsWith(prefix))) {
    rmSync(resolve(outdir, name));
  }
}
rmSync(resolve(outdir, ".v8-cache"), { recursive: true, force: true });

/** What every bundle here shares. */
const common = {
  outdir,
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
};

const scriptName = await bundleScript();
const vendored = Object.fromEntries((await Promise.all(VENDOR_GROUPS.map(bundleVendorGroup))).flat());
// The bin is CommonJS (Node starts it without its ES-module loader); its `import.meta.url` is its own
// file's URL, and the ES module it resolves specifiers with (dist/cli/boot/esm-resolve.js, tsc's output)
// stays a module of its own.
await build({
  ...common,
  entryPoints: { hankweave: resolve(outdir, "boot", "bin.js") },
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  external: ["./boot/esm-resolve.js"],
  banner: { js: BIN_URL_BANNER },
  define: {
    HANKWEAVE_CLI_BUNDLE: JSON.stringify(scriptName),
    HANKWEAVE_VENDORED: JSON.stringify(vendored),
    "import.meta.url": BIN_URL,
  },
});
// The bin's path before it became CommonJS, which links made then (`npm link`, npx's cache) still
// name: it runs the bin (at an ES module's start-up cost).
writeFileSync(resolve(outdir, "hankweave.js"), '#!/usr/bin/env node\nimport "./hankweave.cjs";\n', {
  mode: 0o755,
});
// The tracing thread's entry (src/observability/trace-thread.ts) sits beside the script that starts it.
await build({
  ...common,
  entryPoints: { "trace-worker": resolve(root, "dist", "observability", "trace-worker.js") },
  format: "esm",
  external,
  plugins: [englishOnlyZod],
  banner: REQUIRE_BANNER,
});
copyFileSync(resolve(root, "dist", "hank", "models", "catalog.json"), resolve(outdir, "catalog.json"));
// The code caches the bin writes beside the script are this machine's: never in the package.
writeFileSync(resolve(outdir, ".npmignore"), ".v8-cache/\n");

/**
 * Bundles a group of dependencies into ES modules beside the bin that share what they have in common
 * (split into a chunk of their own), so a package they both use exists once; returns each name's file.
 */
async function bundleVendorGroup(exportsByName) {
  const names = Object.keys(exportsByName);
  const entry = (name) => `vendor-entry:${exportsByName[name]}:${name}`;
  const result = await build({
    ...common,
    entryPoints: Object.fromEntries(
      names.map((name) => [`${VENDOR_PREFIX}${vendorStem(name)}`, entry(name)]),
    ),
    entryNames: "[name]-[hash]",
    chunkNames: `${VENDOR_PREFIX}shared-[hash]`,
    splitting: true,
    format: "esm",
    external: ["react-devtools-core"],
    define: { "process.env.NODE_ENV": '"production"' },
    banner: REQUIRE_BANNER,
    plugins: [vendorEntries()],
    metafile: true,
  });
  return names.map((name) => {
    const [path] =
      Object.entries(result.metafile.outputs).find(([, output]) =>
        output.entryPoint?.endsWith(entry(name)),
      ) ?? [];
    if (path === undefined) throw new Error(`bundle-cli: no vendored module for ${name}`);
    return [name, `./${basename(path)}`];
  });
}

/**
 * `vendor-entry:<kind>:<name>`: a module that re-exports the package: its named exports (an ES module
 * package), or its default export (a CommonJS package, whose `module.exports` that is; the importer
 * reads `.default`, as it would from node_modules).
 */
function vendorEntries() {
  return {
    name: "vendor-entries",
    setup(bundler) {
      bundler.onResolve({ filter: /^vendor-entry:/ }, (args) => ({
        path: args.path,
        namespace: "vendor-entry",
      }));
      bundler.onLoad({ filter: /.*/, namespace: "vendor-entry" }, (args) => {
        const [, kind, name] = args.path.split(":");
        const spec = JSON.stringify(name);
        const contents = kind === "default" ? `export { default } from ${spec};` : `export * from ${spec};`;
        return { contents, resolveDir: root, loader: "js" };
      });
    },
  };
}

function vendorStem(name) {
  return name.replace(/[^a-z0-9]+/gi, "-");
}

/** Builds the CLI's CommonJS script; returns its file name. */
async function bundleScript() {
  const result = await build({
    ...common,
    entryPoints: { "hankweave-cli": resolve(outdir, "start-cli.js") },
    entryNames: "[name]-[hash]",
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    // ASCII only (non-ASCII characters escaped): the bin reads the script as latin1, without decoding.
    charset: "ascii",
    external: [...external, ...VENDORED],
    plugins: [englishOnlyZod],
    metafile: true,
    write: false,
    // A script has no `import.meta`: the bin passes its own (the script sits beside it).
    define: { "import.meta.url": `${HOST}.url`, "import.meta.resolve": `${HOST}.resolve` },
  });
  if (result.warnings.length > 0) throw new Error("bundle-cli: the CLI's script must build without warnings");
  let name;
  for (const file of result.outputFiles) {
    if (file.path.endsWith(".cjs")) {
      name = basename(file.path);
      writeFileSync(file.path, hostImports(file.text, dynamicExternals(result.metafile, name)));
    } else writeFileSync(file.path, file.contents);
  }
  return name;
}

/** The external modules the script imports dynamically (the lazily loaded dependencies). */
function dynamicExternals(metafile, name) {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(name));
  const imports = output?.[1].imports ?? [];
  return new Set(imports.filter((i) => i.external && i.kind === "dynamic-import").map((i) => i.path));
}

/**
 * A script compiled by `vm` cannot `import()` (Node 20 refuses without --experimental-vm-modules): each
 * `import("<external>")` esbuild left in place becomes `__hankweaveHost.import("<external>")`, run by
 * the bin, an ES module beside the script, so the specifier resolves the same. Every external the
 * metafile lists must be found, and no literal `import("...")` may remain.
 */
function hostImports(text, externals) {
  const found = new Set();
  const rewritten = text.replace(DYNAMIC_IMPORT, (whole, specifier) => {
    if (!externals.has(specifier)) return whole;
    found.add(specifier);
    return `${HOST}.import(${JSON.stringify(specifier)})`;
  });
  const missing = [...externals].filter((specifier) => !found.has(specifier));
  const left = rewritten.match(DYNAMIC_IMPORT);
  if (missing.length > 0 || left !== null) {
    throw new Error(`bundle-cli: dynamic imports not rewritten: ${[...missing, ...(left ?? [])].join(", ")}`);
  }
  return rewritten;
}
