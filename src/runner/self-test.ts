import type { ResolvedModel } from "../hank/models/index.ts";
import type { CommandConfig } from "../harness/command/index.ts";
import { selfTestModels as selfTestByDescriptor } from "../harness/index.ts";
import { buildAgentEnv } from "../workspace/agent-env.ts";

/** Set to 1 or true to skip the start-up self-test (the checks run again when each session starts). */
export const SKIP_SELF_TEST_ENV = "HANKWEAVE_RUNTIME_SKIP_SELF_TEST";

/**
 * The start-up self-test: once per distinct model, before any directory is created, each harness's
 * descriptor checks that it can load and that the agent environment carries credentials. Nothing is
 * sent to a provider. Returns one line per failing model, empty when all can run or the test is skipped.
 */
export function selfTestModels(
  models: Iterable<ResolvedModel>,
  processEnv: Readonly<Record<string, string | undefined>>,
  commands: CommandConfig | undefined,
): string[] {
  const skip = processEnv[SKIP_SELF_TEST_ENV];
  if (skip === "1" || skip === "true") return [];
  const context = commands === undefined ? {} : { commands };
  return selfTestByDescriptor(models, buildAgentEnv(processEnv), context).map(
    (failure) => `  - ${failure.requested}: ${failure.problem}`,
  );
}
