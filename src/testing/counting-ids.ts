/** An id source for tests: `<prefix>-1`, `<prefix>-2`, ... so every run yields the same ids. */
export function countingIds(prefix: string): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `${prefix}-${next}`;
  };
}
