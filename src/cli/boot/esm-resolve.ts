// An ES module beside the CommonJS bin, which has no `import.meta`: the bin loads it to resolve a
// specifier as an ES module of the CLI would (the package's `import` conditions, not `require`'s).

/** `import.meta.resolve(specifier)` from the bin's folder: a `file:` URL; throws when nothing resolves. */
export function resolveModule(specifier: string): string {
  return import.meta.resolve(specifier);
}
