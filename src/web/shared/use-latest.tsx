import { useState } from "react";

/**
 * The latest `initial` items of a long list, and a button that shows the rest: a 1,000-iteration run
 * has 1,000 budget rows and checkpoints, and laying them all out would cost the first paint a second.
 */
export function useLatest<T>(
  items: readonly T[],
  initial: number,
  what: string,
): { readonly shown: readonly T[]; readonly more: React.ReactNode } {
  const [all, setAll] = useState(false);
  const hidden = all ? 0 : Math.max(0, items.length - initial);
  const more =
    hidden === 0 ? null : (
      <button type="button" className="show-earlier" onClick={() => setAll(true)}>
        Show {hidden} earlier {what}
      </button>
    );
  return { shown: items.slice(hidden), more };
}
