import type { ResolvedModel } from "../../hank/models/index.ts";
import type { SessionModel } from "../../harness/harness.ts";

/** The model facts a harness needs, from the catalog's resolution. */
export function sessionModelOf(model: ResolvedModel): SessionModel {
  return {
    requested: model.requested,
    id: model.id,
    provider: model.provider,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
  };
}
