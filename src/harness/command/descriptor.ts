import type { HarnessDescriptor } from "../descriptor.ts";
import { createCommandHarness } from "./command-harness.ts";
import { commandModelIdOf, parseCommandModelId, resolveCommandModel } from "./command-model-id.ts";

const NO_COMMANDS =
  "No command-line agents are configured. Define them in hankweave.commands.json beside the hank (see docs/command-harness.md).";

/**
 * A command-line agent configured in hankweave.commands.json: `command/<name>` and
 * `command/<name>/<model>`. One harness per configured command; the command is looked up when its
 * first codon starts, since the configuration lives beside the hank, not in the catalog.
 */
export const commandDescriptor: HarnessDescriptor = {
  kind: "command",
  displayName: "command",
  idPrefix: "command",
  providers: ["command"],
  // No reference default exists for command agents; the Claude figure is used.
  defaultIdleTimeoutSeconds: 180,
  instanceKey: (model) => parseCommandModelId(commandModelIdOf(model))?.name ?? model.requested,
  availability: () => undefined,
  selfTest: (model, _env, context) => {
    if (context.commands === undefined) return "no hankweave.commands.json defines command agents";
    const resolved = resolveCommandModel(context.commands, commandModelIdOf(model));
    return resolved.ok ? undefined : resolved.message;
  },
  create: (model, context) => {
    if (context.commands === undefined) return { missing: NO_COMMANDS };
    const resolved = resolveCommandModel(context.commands, commandModelIdOf(model));
    if (!resolved.ok) return { missing: `${resolved.message}. Define it in hankweave.commands.json.` };
    const { clock, newId, tempDir } = context;
    return createCommandHarness(resolved.command, { clock, newId, tempDir });
  },
};
