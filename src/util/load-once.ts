/**
 * A module (or any value) loaded on first use and kept: later calls return the same promise, so a hot
 * path (a harness's session, once per codon) pays a settled promise instead of `import()`'s lookup in
 * the module loader each time. A failed load is kept too: the next call reports the same error.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}
