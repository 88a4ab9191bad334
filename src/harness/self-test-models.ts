import type { ResolvedModel } from "../hank/models/index.ts";
import { BUILTIN_HARNESSES } from "./builtin-harnesses.ts";
import type { AgentEnv, HarnessDescriptor, SelfTestContext } from "./descriptor.ts";
import { descriptorOfKind, kindsOf } from "./find-descriptor.ts";

/** A model that cannot run here, and why. */
export interface SelfTestFailure {
  readonly requested: string;
  readonly problem: string;
}

/**
 * The start-up self-test of a run: each model is checked by the descriptor of the harness the resolver
 * chose for it (`ResolvedModel.harness`). Nothing is loaded or sent to a provider; the scripted agent
 * needs nothing, so dry runs pass at once. Returns the failing models, in the order given.
 */
export function selfTestModels(
  models: Iterable<ResolvedModel>,
  env: AgentEnv,
  context: SelfTestContext,
  descriptors: readonly HarnessDescriptor[] = BUILTIN_HARNESSES,
): SelfTestFailure[] {
  const failures: SelfTestFailure[] = [];
  for (const model of models) {
    const descriptor = descriptorOfKind(descriptors, model.harness);
    const problem =
      descriptor === undefined
        ? `no harness '${model.harness}' is registered (registered: ${kindsOf(descriptors)})`
        : descriptor.selfTest(model, env, context);
    if (problem !== undefined) failures.push({ requested: model.requested, problem });
  }
  return failures;
}
