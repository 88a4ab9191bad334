import { sessionModelOf } from "../../engine/index.ts";
import { selfTestClaude } from "../../harness/claude/index.ts";
import type { CommandConfig } from "../../harness/command/index.ts";
import { resolveCommandModel } from "../../harness/command/index.ts";
import { selfTestPi } from "../../harness/pi/index.ts";
import type { ResolvedModel } from "../../spec/models/index.ts";
import { buildAgentEnv } from "../../workspace/agent-env.ts";

/** Set to 1 or true to skip the start-up self-test (the checks run again when each session starts). */
export const SKIP_SELF_TEST_ENV = "HANKWEAVE_RUNTIME_SKIP_SELF_TEST";

/**
 * The start-up self-test (reference 1.9): once per distinct model, before any directory is created,
 * check that its harness can load and that credentials are present. Nothing is sent to a provider.
 * The scripted agent needs nothing, so dry runs pass at once. Returns one line per failing model.
 */
export function selfTestModels(
  models: Iterable<ResolvedModel>,
  processEnv: Readonly<Record<string, string | undefined>>,
  commands: CommandConfig | undefined,
): string[] {
  const skip = processEnv[SKIP_SELF_TEST_ENV];
  if (skip === "1" || skip === "true") return [];
  const env = buildAgentEnv(processEnv);
  const failures: string[] = [];
  for (const model of models) {
    const problem = problemOf(model, env, commands);
    if (problem !== undefined) failures.push(`  - ${model.requested}: ${problem}`);
  }
  return failures;
}

function problemOf(
  model: ResolvedModel,
  env: Readonly<Record<string, string>>,
  commands: CommandConfig | undefined,
): string | undefined {
  switch (model.harness) {
    case "scripted":
      return undefined;
    case "claude": {
      const test = selfTestClaude(env);
      return test.ok ? undefined : `${test.message} ${test.hint}`;
    }
    case "pi": {
      const test = selfTestPi(sessionModelOf(model), env);
      return test.ok ? undefined : test.message;
    }
    case "command": {
      if (commands === undefined) return "no hankweave.commands.json defines command agents";
      // The resolved id is `<name>[/<model>]`; the command model id with its prefix is what was requested.
      const resolved = resolveCommandModel(commands, model.requested);
      return resolved.ok ? undefined : resolved.message;
    }
  }
}
