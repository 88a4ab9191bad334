import type { RigFailureType } from "./rig-events.ts";

/** What one rig operation came to. Failures are values; the runner decides whether they stop the rig. */
export type RigOpOutcome =
  | {
      readonly kind: "done";
      /** Absolute path of a copy's target. */
      readonly copiedTo?: string;
      /** Entries a copy left out, hank-relative, and the rules that excluded them. */
      readonly excluded?: { readonly entries: readonly string[]; readonly source: string };
    }
  | {
      readonly kind: "failed";
      readonly failureType: RigFailureType;
      readonly message: string;
      readonly exitCode?: number;
      /** The last lines the command wrote (stdout and stderr interleaved), for the error report. */
      readonly outputTail: readonly string[];
    }
  | { readonly kind: "aborted" };
