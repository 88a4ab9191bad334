import fs from "node:fs";
import path from "node:path";
import { error, formatJsonPath, type IssueSeverity, type JsonPath, type ValidationIssue } from "../issues.ts";
import { parseJsonWithPosition } from "../load-json.ts";
import { resolveModel } from "../models/index.ts";
import { readPromptFiles } from "../prompt.ts";
import { checkRef, REF_HINTS } from "../refs.ts";
import {
  type SentinelConfig,
  SentinelConfig as SentinelConfigSchema,
  type SentinelEntry,
} from "../schema/index.ts";
import { codonSlots, type HankView, type PlacedCodon } from "./hank-view.ts";
import { checkSentinelOutputs } from "./sentinel-output-checks.ts";
import { templateIssues } from "./sentinel-template-check.ts";
import { checkSentinelTrigger } from "./sentinel-trigger-checks.ts";
import type { SentinelStage } from "./validation-types.ts";
import { parseWith, translateZodIssues } from "./zod-issues.ts";

/**
 * Sentinel configs of a codon: file refs loaded and schema-checked, prompt forms, model, and ids
 * unique within the codon. A sentinel problem is an error when the entry sets
 * `failCodonIfNotLoaded`, and a warning otherwise (the codon then runs without that sentinel).
 * Issues inside a sentinel file carry the hank path of the entry plus the path inside the file, and
 * the file itself in `file`.
 */
export function checkSentinels(placed: SentinelOwner, hankDir: string): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const ids = new Set<string>();
  placed.codon.sentinels?.forEach((entry, k) => {
    const at: JsonPath = [...placed.path, "sentinels", k, "sentinelConfig"];
    const loaded = loadSentinelConfig(entry, at, hankDir);
    const found = [...loaded.issues];
    if (loaded.config !== undefined) {
      found.push(...sentinelConfigIssues(loaded.config, entry, at, { hankDir, base: loaded.base }));
      if (ids.has(loaded.config.id)) {
        found.push(
          error(
            "sentinel-duplicate-id",
            [...at, "id"],
            `Duplicate sentinel id "${loaded.config.id}" in codon "${placed.codon.id}"`,
            "Give each sentinel of a codon its own id; outputs are stored by id.",
          ),
        );
      }
      ids.add(loaded.config.id);
    }
    const severity: IssueSeverity = entry.settings?.failCodonIfNotLoaded === true ? "error" : "warning";
    out.push(...found.map((issue) => ({ ...issue, severity })));
  });
  return out;
}

/** The sentinel stage of validation (see `SentinelStage`). */
export const SENTINEL_STAGE: SentinelStage = { checkSentinels, checkUnparsedSentinels };

/** A codon as far as its sentinels go: a placed codon, or the sentinels of one that failed its schema. */
export interface SentinelOwner {
  readonly codon: Pick<PlacedCodon["codon"], "id" | "sentinels">;
  readonly path: JsonPath;
}

/**
 * The sentinels of codons that failed their schema, checked all the same (their files read, their
 * configs checked), so their problems come in the same round as the schema errors.
 */
export function checkUnparsedSentinels(view: HankView, hankDir: string): ValidationIssue[] {
  return codonSlots(view).flatMap(({ path, rawId, rawFileRefs }) => {
    const sentinels = rawFileRefs?.sentinels;
    if (sentinels === undefined) return [];
    return checkSentinels(
      { codon: { id: rawId ?? formatJsonPath(path), sentinels: [...sentinels] }, path },
      hankDir,
    );
  });
}

/**
 * A sentinel entry's config: the inline one, or the file read and schema-checked. `base` is the
 * directory of the sentinel file relative to the hank directory (undefined for inline configs and files
 * at the top): the config's own refs (prompt files, schema file) are relative to it.
 */
export type LoadedSentinelConfig = {
  readonly config: SentinelConfig | undefined;
  readonly issues: ValidationIssue[];
  readonly base: string | undefined;
  /** The sentinel file, absolute; undefined for an inline config. */
  readonly file?: string;
};

type Loaded = LoadedSentinelConfig;

export function loadSentinelConfig(entry: SentinelEntry, at: JsonPath, hankDir: string): Loaded {
  if (typeof entry.sentinelConfig !== "string")
    return { config: entry.sentinelConfig, issues: [], base: undefined };
  const ref = entry.sentinelConfig;
  const checked = checkRef(hankDir, ref, "file");
  if (!checked.ok) {
    const issue = error(
      `ref-${checked.rule}`,
      at,
      `sentinelConfig ${checked.message}`,
      REF_HINTS[checked.rule],
    );
    return { config: undefined, issues: [issue], base: undefined };
  }
  const file = checked.absolutePath;
  const base = path.posix.dirname(checked.relativePath);
  const fail = (issue: ValidationIssue): Loaded => ({
    config: undefined,
    issues: [{ ...issue, file }],
    base,
  });
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return fail(
      error("ref-unreadable", at, `sentinelConfig "${ref}" is not readable: ${reason}`, REF_HINTS.unreadable),
    );
  }
  const json = parseJsonWithPosition(text);
  if (!json.ok) {
    const where = `line ${json.line}, column ${json.column}`;
    return fail(
      error(
        "sentinel-json-invalid",
        at,
        `sentinelConfig "${ref}" is not valid JSON (${where}): ${json.message}`,
        json.hint,
      ),
    );
  }
  const parsed = parseWith(SentinelConfigSchema, json.value);
  if (!parsed.ok) {
    const issues = translateZodIssues(parsed.issues, {
      schema: SentinelConfigSchema,
      raw: json.value,
      prefix: at,
    });
    return { config: undefined, issues: issues.map((issue) => ({ ...issue, file })), base };
  }
  return { config: parsed.data, issues: [], base: base === "." ? undefined : base, file };
}

/** Everything wrong with a loaded config beyond its schema; the file's issues carry no `file` yet. */
export function sentinelConfigIssues(
  config: SentinelConfig,
  entry: SentinelEntry,
  at: JsonPath,
  place: { readonly hankDir: string; readonly base: string | undefined },
): ValidationIssue[] {
  const { hankDir, base } = place;
  const out: ValidationIssue[] = [
    ...checkSentinelTrigger(config.trigger, at, config.id),
    ...checkSentinelOutputs(config, entry.settings, at, place),
  ];
  const hasSystem = config.systemPromptFile !== undefined || config.systemPromptText !== undefined;
  if (config.userPromptFile === undefined && config.userPromptText === undefined) {
    out.push(
      error(
        "sentinel-missing-prompt",
        at,
        `Sentinel "${config.id}": either userPromptFile or userPromptText must be provided`,
        'Add "userPromptText" or "userPromptFile".',
      ),
    );
  }
  for (const [file, text] of [
    ["userPromptFile", "userPromptText"],
    ["systemPromptFile", "systemPromptText"],
  ] as const) {
    if (config[file] !== undefined && config[text] !== undefined) {
      out.push(
        error(
          "sentinel-conflicting-prompt",
          [...at, text],
          `Sentinel "${config.id}": cannot specify both ${file} and ${text}`,
          "Keep one of the two forms.",
        ),
      );
    }
  }
  if (config.conversational !== undefined && !hasSystem) {
    out.push(
      error(
        "sentinel-conversational-without-system-prompt",
        [...at, "conversational"],
        `Sentinel "${config.id}": conversational mode requires a system prompt`,
        'Add "systemPromptText" or "systemPromptFile".',
      ),
    );
  }
  for (const field of ["systemPromptFile", "userPromptFile"] as const) {
    const ref = config[field];
    if (ref === undefined) continue;
    const read = readPromptFiles(hankDir, ref, {
      field,
      path: [...at, field],
      ...(base === undefined ? {} : { base }),
    });
    if (!read.ok) out.push(...read.problems);
    else out.push(...templateIssues(read.text, [...at, field], config.id));
  }
  for (const field of ["systemPromptText", "userPromptText"] as const) {
    const text = config[field];
    if (text !== undefined) out.push(...templateIssues(text, [...at, field], config.id));
  }
  const model = resolveModel(config.model);
  if (!model.ok) {
    out.push(
      error(
        "sentinel-invalid-model",
        [...at, "model"],
        `Sentinel "${config.id}": invalid model '${config.model}': ${model.message}`,
        "Use a full model id, e.g. anthropic/claude-haiku-4-5.",
      ),
    );
  }
  return out;
}
