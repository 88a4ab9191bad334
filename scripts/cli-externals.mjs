// What every bundle of the CLI leaves outside itself, loaded at run time from node_modules: the
// package's bin (scripts/bundle-cli.mjs) and the bundles the crash and Loops tests make of the sources.
// - the optional agent SDKs (peer dependencies, `@anthropic-ai/*`, `@mariozechner/*`): loaded lazily,
//   only when a codon needs them, from the user's own install;
// - yaml: loaded lazily (createRequire) on the first prompt with frontmatter;
// - the terminal UI (ink, react), the Loops store (libsql, a native module, and pg for a PostgreSQL
//   store), croner, and the bundle formats (modern-tar; @mongodb-js/zstd, a native module): loaded
//   lazily (dynamic import) by the commands that need them;
// - OpenTelemetry (only when a run is traced) and prom-client (only by the daemon's metrics).
//
// The bin's own build (scripts/bundle-cli.mjs, VENDOR_GROUPS) bundles kysely, and ink with React from
// the list below, into ES modules beside itself, which its script's `import()` loads instead of
// node_modules: kysely is some 280 modules (about 120 ms of every `loops` command's start), ink with
// React about 300 and React's development build (about 400 ms before the TUI's first frame). kysely is
// not in the list: the test bundles bundle it too.

/** Loaded lazily by the commands that need them. */
export const LAZY_DEPENDENCIES = [
  "yaml",
  "ink",
  "react",
  "libsql",
  "pg",
  "croner",
  "modern-tar",
  "@mongodb-js/zstd",
  "@opentelemetry/*",
  "prom-client",
];

/** The agent SDKs, as package patterns. */
export const AGENT_SDKS = ["@anthropic-ai/*", "@mariozechner/*"];

/** Every module a CLI bundle leaves external. */
export const CLI_EXTERNALS = [...LAZY_DEPENDENCIES, ...AGENT_SDKS];
