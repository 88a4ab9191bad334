import type { ResolvedModel } from "../hank/models/index.ts";
import { BUILTIN_HARNESSES, descriptorOfKind, type HarnessDescriptor } from "../harness/index.ts";
import type { AgentTools } from "./agent.ts";
import type { CheckedLoopOptions } from "./loop-options.ts";
import type { ArgumentIssue } from "./workflow-argument-error.ts";

/**
 * Whether each agent's tool settings can be applied by the harness its model runs on, checked once
 * the models are resolved and before anything runs: a harness that cannot restrict tools (a
 * command-line agent) is refused rather than left to run the agent with every tool, and a name the
 * harness does not have (pi's `Read` for `read`) is refused rather than silently never matching.
 */
export function toolSettingProblems(
  options: CheckedLoopOptions,
  models: ReadonlyMap<string, ResolvedModel>,
  descriptors: readonly HarnessDescriptor[] = BUILTIN_HARNESSES,
): ArgumentIssue[] {
  return options.steps.flatMap((agent, index) => {
    if (agent.tools === undefined) return [];
    const modelId = options.model ?? agent.model;
    const resolved = models.get(modelId);
    if (resolved === undefined) return [];
    const descriptor = descriptorOfKind(descriptors, resolved.harness);
    const where = `options.steps[${index}].tools`;
    const names = descriptor?.toolNames;
    if (names === undefined) {
      return [
        {
          argument: where,
          message: `agent "${agent.name}" runs on ${modelId} (${descriptor?.displayName ?? resolved.harness} harness), which cannot restrict an agent's tools.`,
          fix: `Remove the agent's tools, restrict them in the agent's own command line (hankweave.commands.json), or give "${agent.name}" a Claude, pi or scripted model.`,
        },
      ];
    }
    if (names === "open") return [];
    return unknownNames(agent.tools, names).map(({ list, name }) => ({
      argument: `${where}.${list}`,
      message: `agent "${agent.name}" runs on ${modelId}, whose harness (${descriptor?.displayName ?? resolved.harness}) has no tool "${name}".`,
      fix: `Use the harness's tool names: ${names.join(", ")}.`,
    }));
  });
}

function unknownNames(
  tools: AgentTools,
  known: readonly string[],
): { readonly list: "allow" | "deny"; readonly name: string }[] {
  const lists = [
    ["allow", tools.allow ?? []],
    ["deny", tools.deny ?? []],
  ] as const;
  return lists.flatMap(([list, names]) =>
    names.filter((name) => !known.includes(name)).map((name) => ({ list, name })),
  );
}
