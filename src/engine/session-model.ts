import type { SessionModel } from "../harness/harness.ts";
import type { ResolvedModel } from "../spec/models/index.ts";

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
