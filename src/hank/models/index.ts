/** Model ids: the bundled catalog, resolution of the ids hanks use, and cost from token counts. */
export type { ModelCatalog } from "./catalog.ts";
export { bundledCatalog, createModelCatalog, loadModelCatalog } from "./catalog.ts";
export type { CatalogData, CatalogHeader, CatalogModel } from "./catalog-data.ts";
export { CLAUDE_ALIASES, type ClaudeAlias } from "./claude-aliases.ts";
export { harnessForProvider } from "./harness-for-provider.ts";
export { modelCostUsd, type TokenCounts } from "./model-cost.ts";
export type {
  HarnessKind,
  ModelMatchType,
  ModelPricing,
  ModelResolution,
  ReasoningEffort,
  ResolvedModel,
} from "./model-types.ts";
export { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT_TOKENS, resolveModel } from "./resolve-model.ts";
export { suggestModels } from "./suggest-models.ts";
