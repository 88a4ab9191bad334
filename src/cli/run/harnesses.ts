import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "../../engine/index.ts";
import { createClaudeHarness } from "../../harness/claude/index.ts";
import { type CommandConfig, createCommandHarnesses } from "../../harness/command/index.ts";
import type { HarnessRegistry } from "../../harness/harness.ts";
import { createPiHarness } from "../../harness/pi/index.ts";
import { createHarnessRegistry } from "../../harness/registry.ts";
import { createScriptedHarness } from "../../harness/scripted/index.ts";
import type { ExecutionLayout } from "../../workspace/execution-layout.ts";

export interface HarnessSetup {
  readonly clock: Clock;
  readonly layout: ExecutionLayout;
  /** Command-line agents from hankweave.commands.json, when there is one. */
  readonly commands?: CommandConfig;
}

/**
 * The harnesses of a run, each built only when a codon first needs it; their SDKs load lazily inside,
 * so a hank that uses only the scripted agent never loads a provider SDK.
 */
export function createHarnesses(setup: HarnessSetup): HarnessRegistry {
  const { commands } = setup;
  const commandHarnesses =
    commands === undefined
      ? undefined
      : createCommandHarnesses(commands, { clock: setup.clock, newId: randomUUID, tempDir: tmpdir() });
  return createHarnessRegistry({
    ...(commandHarnesses !== undefined && { command: (model) => commandHarnesses.forModel(model) }),
    scripted: () =>
      createScriptedHarness({
        clock: setup.clock,
        newId: randomUUID,
        sessionFile: join(setup.layout.stateDir, "scripted-sessions.jsonl"),
      }),
    claude: () => createClaudeHarness({ configDir: () => join(setup.layout.stateDir, "claude") }),
    pi: () => createPiHarness({ sessionDir: join(setup.layout.stateDir, "pi-sessions"), clock: setup.clock }),
  });
}
