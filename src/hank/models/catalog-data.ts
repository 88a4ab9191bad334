import type { ModelPricing } from "./model-types.ts";

/**
 * The bundled catalog file (`catalog.json`, written by `scripts/snapshot-models.ts`): one entry per
 * model a provider serves, as published by models.dev through `@mariozechner/pi-ai`.
 */
export interface CatalogHeader {
  readonly source: string;
  readonly version: string;
  readonly generatedAt: string;
}

export interface CatalogModel {
  readonly provider: string;
  readonly id: string;
  readonly name: string;
  /** The wire API pi uses for the model, e.g. `anthropic-messages`, `openai-responses`. */
  readonly api: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly reasoning: boolean;
  /** US dollars per million tokens; null when the source publishes no fixed price (e.g. routers). */
  readonly cost: ModelPricing | null;
}

export interface CatalogData {
  readonly header: CatalogHeader;
  readonly models: readonly CatalogModel[];
}

type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === "string" && value !== "";
const isCount: Check = (value) => typeof value === "number" && Number.isInteger(value) && value >= 0;
const isPrice: Check = (value) => typeof value === "number" && Number.isFinite(value) && value >= 0;
const isBoolean: Check = (value) => typeof value === "boolean";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkFields(value: unknown, fields: Record<string, Check>, where: string): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`Model catalog: ${where} is not an object`);
  for (const [field, check] of Object.entries(fields)) {
    if (!check(value[field])) throw new Error(`Model catalog: ${where} has an invalid "${field}"`);
  }
  return value;
}

const HEADER_FIELDS = { source: isString, version: isString, generatedAt: isString };
const COST_FIELDS = { input: isPrice, output: isPrice, cacheRead: isPrice, cacheWrite: isPrice };
const MODEL_FIELDS = {
  provider: isString,
  id: isString,
  name: isString,
  api: isString,
  contextWindow: isCount,
  maxOutputTokens: isCount,
  reasoning: isBoolean,
};

function parseModel(value: unknown, index: number): CatalogModel {
  const where = `models[${index}]`;
  const raw = checkFields(value, MODEL_FIELDS, where);
  return {
    provider: raw.provider as string,
    id: raw.id as string,
    name: raw.name as string,
    api: raw.api as string,
    contextWindow: raw.contextWindow as number,
    maxOutputTokens: raw.maxOutputTokens as number,
    reasoning: raw.reasoning as boolean,
    cost: raw.cost === null ? null : parseCost(raw.cost, `${where}.cost`),
  };
}

function parseCost(value: unknown, where: string): ModelPricing {
  const cost = checkFields(value, COST_FIELDS, where);
  return {
    input: cost.input as number,
    output: cost.output as number,
    cacheRead: cost.cacheRead as number,
    cacheWrite: cost.cacheWrite as number,
  };
}

/**
 * Checks the shape of parsed catalog JSON and returns it typed. The catalog ships with the package,
 * so a malformed one is a build bug: this throws rather than returning an error value.
 */
export function parseCatalogData(value: unknown): CatalogData {
  const raw = checkFields(value, { header: isRecord, models: Array.isArray }, "the file");
  const header = checkFields(raw.header, HEADER_FIELDS, "header");
  const models = (raw.models as unknown[]).map(parseModel);
  return {
    header: {
      source: header.source as string,
      version: header.version as string,
      generatedAt: header.generatedAt as string,
    },
    models,
  };
}
