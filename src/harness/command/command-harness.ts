import { loadOnce } from "../../util/load-once.ts";
import type { Harness, SessionModel } from "../harness.ts";
import { createSession } from "../session-channel.ts";
import type { CommandConfig, NamedCommand } from "./command-config.ts";
import { commandModelIdOf, parseCommandModelId, resolveCommandModel } from "./command-model-id.ts";
import type { CommandHarnessDeps } from "./run-command-session.ts";

/** The `{model}` of a session: the model id's suffix (`command/<name>/<model>`), else the command's `model`. */
function modelOf(command: NamedCommand, model: SessionModel): string | undefined {
  const fromId = parseCommandModelId(model.id) ?? parseCommandModelId(model.requested);
  return fromId?.model ?? command.model;
}

/**
 * The session's code (output parsers, the agent process), loaded with the first session: validation
 * and runs of other harnesses never compile it.
 */
const sessionCode = loadOnce(() => import("./run-command-session.ts"));

/**
 * Runs one configured CLI agent as a harness (docs/command-harness.md). Capabilities follow the
 * configuration: resume only with `resumeArgs`; cost only from output formats that report it.
 */
export function createCommandHarness(command: NamedCommand, deps: CommandHarnessDeps): Harness {
  return {
    name: `command/${command.name}`,
    capabilities: {
      resume: command.resumeArgs !== undefined,
      reportsCost: command.output !== "text",
      compaction: false,
    },
    start: (request) =>
      createSession(async (emit) => {
        const { runCommandSession } = await sessionCode();
        return runCommandSession(request, command, modelOf(command, request.model), deps, emit);
      }),
  };
}

/**
 * The harnesses of every configured command, each built on first use. `forModel` returns undefined
 * for a model id that names no configured command.
 */
export function createCommandHarnesses(
  config: CommandConfig,
  deps: CommandHarnessDeps,
): { forModel(model: SessionModel): Harness | undefined } {
  const built = new Map<string, Harness>();
  return {
    forModel(model) {
      const resolved = resolveCommandModel(config, commandModelIdOf(model));
      if (!resolved.ok) return undefined;
      const existing = built.get(resolved.command.name);
      if (existing !== undefined) return existing;
      const harness = createCommandHarness(resolved.command, deps);
      built.set(resolved.command.name, harness);
      return harness;
    },
  };
}
