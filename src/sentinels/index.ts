/**
 * Sentinels: observers of a codon's event stream that call a model on what they see (summaries,
 * reviews, structured extractions) and write what it answers. Loaded per codon, fed every journaled
 * event, drained and unloaded when the codon ends; their spend counts in the run's budgets.
 */
export type { Batcher, Strategy } from "./batcher.ts";
export { createBatcher } from "./batcher.ts";
export { compileConditions, valueAt } from "./conditions.ts";
export { Conversation, estimateTokens } from "./conversation.ts";
export {
  DEFAULT_MAX_CONSECUTIVE_FAILURES,
  decideAfterFailure,
  type FailureVerdict,
} from "./failure-policy.ts";
export type { LoadProblem, SentinelDefinition, SentinelReporting } from "./load-sentinels.ts";
export { loadCodonSentinels } from "./load-sentinels.ts";
export { createPiSentinelModel, sentinelApiKey } from "./pi-sentinel-model.ts";
export { createScriptedSentinelModel } from "./scripted-sentinel-model.ts";
export { createSentinelHost, type RunSentinels, type SentinelHostOptions } from "./sentinel-host.ts";
export type {
  ChatMessage,
  SentinelModel,
  SentinelModelRequest,
  SentinelModelResult,
  SentinelUsage,
} from "./sentinel-model.ts";
export { compileStructured, type StructuredSpec } from "./structured-output.ts";
export { compileTemplate, MAX_TEMPLATE_EVENTS, type TemplateContext } from "./templates.ts";
export { createTriggerMatcher, type TriggerMatcher } from "./trigger-matcher.ts";
