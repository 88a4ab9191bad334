import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import type { CommandConfig } from "../harness/command/index.ts";
import { createHarnessRegistry, type HarnessRegistry, harnessFactories } from "../harness/index.ts";
import type { Clock } from "../util/clock.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";

export interface HarnessSetup {
  readonly clock: Clock;
  readonly layout: ExecutionLayout;
  /** Command-line agents from hankweave.commands.json, when there is one. */
  readonly commands?: CommandConfig;
  /** See `HarnessContext.mayWrite`: the run's lock fence. */
  readonly mayWrite?: () => boolean;
}

/**
 * The harnesses of a run: the built-in descriptors with this execution's state directory, random ids
 * and the system temp directory. Each is built only when a codon first needs it and loads its SDK
 * lazily inside, so a hank that uses only the scripted agent never loads a provider SDK.
 */
export function createHarnesses(setup: HarnessSetup): HarnessRegistry {
  const { clock, layout, commands, mayWrite } = setup;
  return createHarnessRegistry(
    harnessFactories({
      clock,
      stateDir: layout.stateDir,
      tempDir: tmpdir(),
      newId: randomUUID,
      ...(commands !== undefined && { commands }),
      ...(mayWrite !== undefined && { mayWrite }),
    }),
  );
}
