import { type HarnessKind, harnessForProvider } from "../spec/models/index.ts";
import type { Harness, HarnessRegistry, SessionModel } from "./harness.ts";

/** How to get the harness of one kind: built on first use, so an unused SDK is never loaded. */
export type HarnessFactories = Partial<Record<HarnessKind, () => Harness>>;

/** Install hints for the harnesses this build can run but that are not installed or wired. */
const MISSING: Record<HarnessKind, string> = {
  claude:
    "The Claude harness is not available in this build of hankweave. Run with -m scripted for a dry run.",
  pi: "The pi harness is not available in this build of hankweave. Run with -m scripted for a dry run.",
  scripted: "The scripted agent is not available.",
};

/**
 * Chooses a harness by the model's provider (anthropic: claude; scripted: scripted; others: pi).
 * Each harness is created once, lazily. A kind with no factory throws with a hint; the engine records
 * that as a permanent failure of the codon.
 */
export function createHarnessRegistry(factories: HarnessFactories): HarnessRegistry {
  const built = new Map<HarnessKind, Harness>();
  return {
    forModel(model: SessionModel): Harness {
      const kind = harnessForProvider(model.provider);
      const existing = built.get(kind);
      if (existing !== undefined) return existing;
      const factory = factories[kind];
      if (factory === undefined) throw new Error(MISSING[kind]);
      const harness = factory();
      built.set(kind, harness);
      return harness;
    },
  };
}
