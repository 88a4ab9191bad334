import { randomUUID } from "node:crypto";
import type { Clock } from "../../engine/index.ts";
import type { HarnessRegistry } from "../../harness/harness.ts";
import { createHarnessRegistry } from "../../harness/registry.ts";
import { createScriptedHarness } from "../../harness/scripted/index.ts";
import type { ExecutionLayout } from "../../workspace/execution-layout.ts";

export interface HarnessSetup {
  readonly clock: Clock;
  readonly layout: ExecutionLayout;
}

/** The harnesses of a run, each built only when a codon first needs it. */
export function createHarnesses(setup: HarnessSetup): HarnessRegistry {
  return createHarnessRegistry({
    scripted: () => createScriptedHarness({ clock: setup.clock, newId: randomUUID }),
  });
}
