import { type EndReason, worstEndReason } from "../end-reason.ts";

/** The model streams of a session: the last one's end reason and the worst over all of them. */
export interface StreamReasons {
  add(reason: EndReason): void;
  current(): { readonly last: EndReason | undefined; readonly worst: EndReason };
}

export function createStreamReasons(): StreamReasons {
  let last: EndReason | undefined;
  let worst: EndReason = "completed";
  return {
    add(reason) {
      last = reason;
      worst = worstEndReason(worst, reason);
    },
    current: () => ({ last, worst }),
  };
}
