/**
 * ink and React, loaded on demand. The CLI binary is one bundle: a static import of ink anywhere in it
 * would load ink and React on every start (`--help`, `--validate`...). The TUI's views therefore take
 * the modules as an argument, and only `loadInk` imports them, dynamically.
 */
export interface InkModules {
  readonly ink: typeof import("ink");
  readonly react: typeof import("react");
}

export async function loadInk(): Promise<InkModules> {
  const [ink, react] = await Promise.all([import("ink"), import("react")]);
  // React is CommonJS: its `module.exports` is the default export, from node_modules and from the
  // module the bin's build bundles it into (scripts/bundle-cli.mjs), where it is the only export.
  return { ink, react: react.default };
}
