import { type HarnessKind, harnessForProvider } from "../spec/models/index.ts";
import type { Harness, HarnessRegistry, SessionModel } from "./harness.ts";

/**
 * How to get the harness of each kind: built on first use, so an unused SDK is never loaded. Command
 * agents are one harness per configured command, so that factory takes the model and may find none.
 */
export interface HarnessFactories {
  readonly claude?: () => Harness;
  readonly pi?: () => Harness;
  readonly scripted?: () => Harness;
  readonly command?: (model: SessionModel) => Harness | undefined;
}

/** Why a kind cannot run here, with what to do about it. */
const MISSING: Record<HarnessKind, string> = {
  claude:
    "The Claude harness is not available in this build of hankweave. Run with -m scripted for a dry run.",
  pi: "The pi harness is not available in this build of hankweave. Run with -m scripted for a dry run.",
  scripted: "The scripted agent is not available.",
  command:
    "No command-line agents are configured. Define them in hankweave.commands.json beside the hank (see docs/command-harness.md).",
};

function build(factories: HarnessFactories, kind: HarnessKind, model: SessionModel): Harness {
  const harness = kind === "command" ? factories.command?.(model) : factories[kind]?.();
  if (harness !== undefined) return harness;
  if (kind === "command" && factories.command !== undefined) {
    throw new Error(`No command agent named for model '${model.requested}' in hankweave.commands.json.`);
  }
  throw new Error(MISSING[kind]);
}

/**
 * Chooses a harness by the model's provider (anthropic: claude; scripted: scripted; command: the
 * configured command; others: pi). Each harness is created once. A kind that cannot run throws with a
 * hint; the engine records that as a permanent failure of the codon.
 */
export function createHarnessRegistry(factories: HarnessFactories): HarnessRegistry {
  const built = new Map<string, Harness>();
  return {
    forModel(model: SessionModel): Harness {
      const kind = harnessForProvider(model.provider);
      const key = kind === "command" ? `command:${model.id}` : kind;
      const existing = built.get(key);
      if (existing !== undefined) return existing;
      const harness = build(factories, kind, model);
      built.set(key, harness);
      return harness;
    },
  };
}
