/**
 * Writes `src/hank/models/catalog.json`, the model catalog that hank validation resolves model ids
 * against, from the `MODELS` export of `@mariozechner/pi-ai` (itself derived from models.dev).
 *
 * pi-ai is not a dependency of hankweave: point `PI_AI_DIR` at an installed copy of the package
 * (the folder holding its package.json), or install it where Node can resolve it from here.
 *
 * The output is deterministic: models sorted by provider then id, one model per line, and
 * `generatedAt` is a calendar day taken from `SOURCE_DATE_EPOCH` (seconds) when set, else today.
 *
 *   PI_AI_DIR=/path/to/node_modules/@mariozechner/pi-ai npm run models:snapshot
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const PACKAGE = "@mariozechner/pi-ai";
const ENTRY = "dist/models.generated.js";
const OUTPUT = resolve(import.meta.dirname, "..", "src", "hank", "models", "catalog.json");

interface SourceModel {
  readonly id: string;
  readonly name: string;
  readonly api: string;
  readonly provider: string;
  readonly reasoning: boolean;
  readonly cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  readonly contextWindow: number;
  readonly maxTokens: number;
}

type SourceModels = Record<string, Record<string, SourceModel>>;

/** The package folder: `PI_AI_DIR` when set, else wherever Node resolves the package from here. */
function findPackageDir(env: NodeJS.ProcessEnv): string | undefined {
  const fromEnv = env.PI_AI_DIR;
  if (fromEnv !== undefined && fromEnv !== "") return resolve(fromEnv);
  try {
    const require = createRequire(import.meta.url);
    return dirname(require.resolve(`${PACKAGE}/package.json`));
  } catch {
    return undefined;
  }
}

function installHint(reason: string): string {
  return [
    `snapshot-models: ${reason}`,
    `Install ${PACKAGE} outside the project and point PI_AI_DIR at it, for example:`,
    `  npm install --prefix /tmp/piai ${PACKAGE}`,
    `  PI_AI_DIR=/tmp/piai/node_modules/${PACKAGE} npm run models:snapshot`,
  ].join("\n");
}

/**
 * Prices per million tokens, or null when the source has no usable price (models.dev marks
 * variable-price routers such as `openrouter/auto` with negative numbers).
 */
function catalogCost(cost: SourceModel["cost"]): SourceModel["cost"] | null {
  const prices = [cost.input, cost.output, cost.cacheRead, cost.cacheWrite];
  if (!prices.every((price) => Number.isFinite(price) && price >= 0)) return null;
  return {
    input: tidy(cost.input),
    output: tidy(cost.output),
    cacheRead: tidy(cost.cacheRead),
    cacheWrite: tidy(cost.cacheWrite),
  };
}

/** Drops binary floating-point noise from the source (0.7999999999999999 becomes 0.8). */
function tidy(price: number): number {
  return Number(price.toPrecision(12));
}

function toCatalogLine(model: SourceModel): string {
  return JSON.stringify({
    provider: model.provider,
    id: model.id,
    name: model.name,
    api: model.api,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxTokens,
    reasoning: model.reasoning,
    cost: catalogCost(model.cost),
  });
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorted by provider, then id (code-unit order, so the result does not depend on the locale). */
function sortedModels(models: SourceModels): SourceModel[] {
  const out: SourceModel[] = [];
  for (const provider of Object.keys(models).sort(compareText)) {
    const byId = models[provider] ?? {};
    for (const id of Object.keys(byId).sort(compareText)) {
      const model = byId[id];
      if (model !== undefined) out.push({ ...model, provider, id });
    }
  }
  return out;
}

function generatedAt(env: NodeJS.ProcessEnv, now: Date): string {
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  const when = env.SOURCE_DATE_EPOCH !== undefined && Number.isFinite(epoch) ? new Date(epoch * 1000) : now;
  return when.toISOString().slice(0, 10);
}

function renderCatalog(models: SourceModel[], version: string, day: string): string {
  const header = JSON.stringify({ source: PACKAGE, version, generatedAt: day });
  const lines = models.map(toCatalogLine);
  return `{"header":${header},\n"models":[\n${lines.join(",\n")}\n]}\n`;
}

async function main(): Promise<number> {
  const dir = findPackageDir(process.env);
  if (dir === undefined) {
    console.error(installHint(`${PACKAGE} is not installed and PI_AI_DIR is not set.`));
    return 1;
  }
  const entry = join(dir, ENTRY);
  const packageJson = join(dir, "package.json");
  if (!existsSync(entry) || !existsSync(packageJson)) {
    console.error(installHint(`no ${ENTRY} under ${dir}.`));
    return 1;
  }
  const { version } = JSON.parse(readFileSync(packageJson, "utf8")) as { version: string };
  const { MODELS } = (await import(pathToFileURL(entry).href)) as { MODELS: SourceModels };
  const models = sortedModels(MODELS);
  writeFileSync(OUTPUT, renderCatalog(models, version, generatedAt(process.env, new Date())));
  const providers = new Set(models.map((m) => m.provider)).size;
  console.log(
    `Wrote ${models.length} models from ${providers} providers (${PACKAGE} ${version}) to ${OUTPUT}`,
  );
  return 0;
}

process.exitCode = await main();
