/** An id source for tests: `<prefix>-1`, `<prefix>-2`, ... (after `start`), so every run yields the same ids. */
export function countingIds(prefix: string, start = 0): () => string {
  let next = start;
  return () => {
    next += 1;
    return `${prefix}-${next}`;
  };
}
