/**
 * The attribute keys of hankweave's spans, in one place. The `gen_ai.*` keys are the OpenTelemetry
 * GenAI semantic conventions (https://opentelemetry.io/docs/specs/semconv/gen-ai/); the `hankweave.*`
 * keys are ours. Only structural fields ever become attributes (ids, names, counts, costs, end
 * reasons): never prompts, messages, tool inputs or results, so no secret can enter a span.
 */
export const ATTR = {
  genAiOperation: "gen_ai.operation.name",
  genAiSystem: "gen_ai.system",
  genAiRequestModel: "gen_ai.request.model",
  genAiInputTokens: "gen_ai.usage.input_tokens",
  genAiOutputTokens: "gen_ai.usage.output_tokens",
  genAiToolName: "gen_ai.tool.name",
  genAiToolCallId: "gen_ai.tool.call.id",
  genAiAgentName: "gen_ai.agent.name",
  runId: "hankweave.run.id",
  runOutcome: "hankweave.run.outcome",
  executionPath: "hankweave.execution.path",
  codonId: "hankweave.codon.id",
  codonName: "hankweave.codon.name",
  attempt: "hankweave.attempt",
  costUsd: "hankweave.cost_usd",
  durationMs: "hankweave.duration_ms",
  endReason: "hankweave.end_reason",
  endReasonStream: "hankweave.end_reason.stream",
  endReasonToolBatch: "hankweave.end_reason.tool_batch",
  endReasonTurn: "hankweave.end_reason.turn",
  failureType: "hankweave.failure.type",
  budgetExceeded: "hankweave.budget.exceeded",
  budgetCurrency: "hankweave.budget.currency",
  cacheReadTokens: "hankweave.usage.cache_read_tokens",
  cacheCreationTokens: "hankweave.usage.cache_creation_tokens",
  loopId: "hankweave.loop.id",
  loopIteration: "hankweave.loop.iteration",
  loopFinal: "hankweave.loop.final",
  loopEndCause: "hankweave.loop.end_cause",
  loopIterations: "hankweave.loop.iterations",
  loopConverged: "hankweave.loop.converged",
  loopMaxIterations: "hankweave.loop.max_iterations",
  loopDurable: "hankweave.loop.durable",
  loopSteps: "hankweave.loop.steps",
  loopStep: "hankweave.loop.step",
  tokens: "hankweave.tokens",
} as const;

/** The `gen_ai.system` of a model id: its provider prefix (`openai/gpt-5`), else a known family. */
export function genAiSystemOf(modelId: string): string {
  const slash = modelId.indexOf("/");
  if (slash > 0) return modelId.slice(0, slash);
  if (modelId.startsWith("claude")) return "anthropic";
  if (modelId.startsWith("gpt") || modelId.startsWith("o3") || modelId.startsWith("o4")) return "openai";
  if (modelId.startsWith("gemini")) return "gcp.gemini";
  return modelId;
}
