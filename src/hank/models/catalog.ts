import { readFileSync } from "node:fs";
import type { CatalogData, CatalogHeader, CatalogModel } from "./catalog-data.ts";
import { parseCatalogData } from "./catalog-data.ts";
import { CLAUDE_ALIASES, type ClaudeAlias, latestClaudeModel } from "./claude-aliases.ts";
import { compareProviders } from "./provider-preference.ts";

/**
 * The model catalog with its lookups. All lookups are case-insensitive and are built once, when the
 * catalog is created; the object is immutable afterwards.
 */
export interface ModelCatalog {
  readonly header: CatalogHeader;
  readonly models: readonly CatalogModel[];
  /** Provider names, sorted. */
  readonly providers: readonly string[];
  hasProvider(provider: string): boolean;
  /** The model a provider serves under `id`. */
  find(provider: string, id: string): CatalogModel | undefined;
  /** The model a bare id names: the preferred provider's when several serve it (`provider-preference.ts`). */
  findBareId(id: string): CatalogModel | undefined;
  /** The Anthropic model a `haiku` / `sonnet` / `opus` alias names. */
  aliasTarget(alias: ClaudeAlias): CatalogModel | undefined;
  /** Every bare id (lowercase) with the model it resolves to. */
  readonly bareIds: ReadonlyMap<string, CatalogModel>;
}

function keyOf(provider: string, id: string): string {
  return `${provider.toLowerCase()}/${id.toLowerCase()}`;
}

function indexBareIds(models: readonly CatalogModel[]): Map<string, CatalogModel> {
  const byId = new Map<string, CatalogModel>();
  for (const model of models) {
    const id = model.id.toLowerCase();
    const current = byId.get(id);
    if (current === undefined || compareProviders(model.provider, current.provider) < 0) byId.set(id, model);
  }
  return byId;
}

function indexAliases(models: readonly CatalogModel[]): Map<ClaudeAlias, CatalogModel> {
  const aliases = new Map<ClaudeAlias, CatalogModel>();
  for (const alias of CLAUDE_ALIASES) {
    const target = latestClaudeModel(models, alias);
    if (target !== undefined) aliases.set(alias, target);
  }
  return aliases;
}

/** Builds the lookups over catalog data (tests pass small hand-written catalogs). */
export function createModelCatalog(data: CatalogData): ModelCatalog {
  const byKey = new Map(data.models.map((model) => [keyOf(model.provider, model.id), model] as const));
  const providers = [...new Set(data.models.map((model) => model.provider.toLowerCase()))].sort();
  const providerSet = new Set(providers);
  const bareIds = indexBareIds(data.models);
  const aliases = indexAliases(data.models);
  return Object.freeze({
    header: data.header,
    models: data.models,
    providers,
    hasProvider: (provider: string) => providerSet.has(provider.toLowerCase()),
    find: (provider: string, id: string) => byKey.get(keyOf(provider, id)),
    findBareId: (id: string) => bareIds.get(id.toLowerCase()),
    aliasTarget: (alias: ClaudeAlias) => aliases.get(alias),
    bareIds,
  });
}

/** The catalog file shipped with the package: beside this module in `src/` and in `dist/` alike. */
export const BUNDLED_CATALOG_URL = new URL("./catalog.json", import.meta.url);

/** Reads and indexes a catalog file. Throws when it is missing or malformed (a packaging bug). */
export function loadModelCatalog(file: URL | string = BUNDLED_CATALOG_URL): ModelCatalog {
  return createModelCatalog(parseCatalogData(JSON.parse(readFileSync(file, "utf8"))));
}

function lazily<T>(create: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= create();
    return value;
  };
}

/**
 * The bundled catalog, read on first use and then shared (it is immutable). Importing this module
 * does no work.
 */
export const bundledCatalog: () => ModelCatalog = lazily(() => loadModelCatalog());
