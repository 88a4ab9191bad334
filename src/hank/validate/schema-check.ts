import { error, type JsonPath, type ValidationIssue } from "../issues.ts";
import {
  Codon,
  ContainerBudget,
  FileRefs,
  HankFile,
  HankShape,
  Overrides,
  Requirements,
  ROOT_FIELDS,
} from "../schema/index.ts";
import { type CodonSlot, type HankView, type ItemSlot, isRecord } from "./hank-view.ts";
import { LoopHeaderSchema } from "./item-schemas.ts";
import { unknownRootFieldIssue } from "./unknown-fields.ts";
import { describeValue } from "./value-text.ts";
import { parseWith, translateZodIssues } from "./zod-issues.ts";

/**
 * The schema stage. The root and each item of `hank` are checked on their own (a loop or a codon
 * schema chosen by `type`, loop bodies codon by codon), so every broken item is reported and the
 * items that pass still feed the later checks through the returned view.
 */
export interface SchemaStage {
  readonly issues: ValidationIssue[];
  readonly view: HankView;
  /** The whole file parsed, when the schema found no error. */
  readonly hank: HankFile | undefined;
}

export function checkSchema(raw: unknown): SchemaStage {
  const issues: ValidationIssue[] = [];
  if (!isRecord(raw)) {
    issues.push(
      error(
        "invalid-root",
        [],
        `The hank file must contain a JSON object, not ${describeValue(raw)}.`,
        'Write an object with a "hank" array of codons and loops.',
      ),
    );
    return { issues, view: emptyView(), hank: undefined };
  }
  for (const key of Object.keys(raw)) if (!ROOT_FIELDS.includes(key)) issues.push(unknownRootFieldIssue(key));
  for (const field of ROOT_FIELDS) {
    if (field === "hank" || raw[field] === undefined) continue;
    issues.push(...checkPart(HankShape[field as keyof typeof HankShape], raw[field], [field]));
  }
  const items = checkItems(raw.hank, issues);
  const view = buildView(raw, items);
  if (issues.some((i) => i.severity === "error")) return { issues, view, hank: undefined };
  const whole = parseWith(HankFile, raw);
  if (whole.ok) return { issues, view, hank: whole.data };
  issues.push(...translateZodIssues(whole.issues, { schema: HankFile, raw, prefix: [] }));
  return { issues, view, hank: undefined };
}

function checkPart(
  schema: Parameters<typeof parseWith>[0],
  value: unknown,
  prefix: JsonPath,
): ValidationIssue[] {
  const parsed = parseWith(schema, value);
  return parsed.ok ? [] : translateZodIssues(parsed.issues, { schema, raw: value, prefix });
}

function checkItems(hank: unknown, issues: ValidationIssue[]): ItemSlot[] {
  if (hank === undefined) {
    issues.push(
      error(
        "missing-field",
        ["hank"],
        'Missing required field "hank".',
        'Add "hank": an array of codons and loops.',
      ),
    );
    return [];
  }
  if (!Array.isArray(hank)) {
    issues.push(
      error(
        "invalid-type",
        ["hank"],
        `"hank" must be an array, not ${describeValue(hank)}.`,
        'Make "hank" an array of codons and loops.',
      ),
    );
    return [];
  }
  if (hank.length === 0) {
    issues.push(
      error(
        "empty-hank",
        ["hank"],
        "At least one codon required",
        'Add at least one codon to the "hank" array.',
      ),
    );
  }
  return hank.map((item: unknown, index) => checkItem(item, ["hank", index], index, issues));
}

const NOT_OBJECT_HINT =
  'Write a codon ({ "id", "name", "model", "continuationMode", "promptText" }) or a loop ({ "type": "loop", ... }).';

function checkItem(item: unknown, path: JsonPath, index: number, issues: ValidationIssue[]): ItemSlot {
  if (!isRecord(item)) {
    issues.push(
      error(
        "invalid-item",
        path,
        `Item at index ${index} must be an object (codon or loop)`,
        NOT_OBJECT_HINT,
      ),
    );
    return { kind: "invalid", path };
  }
  const type = item.type;
  if (type === "loop") return checkLoop(item, path, issues);
  if (type === undefined || type === "codon") return { kind: "codon", ...checkCodon(item, path, issues) };
  issues.push(unknownTypeIssue(type, [...path, "type"], `Item at index ${index}`, true));
  const { type: _ignored, ...rest } = item;
  if ("codons" in item || "terminateOn" in item) return checkLoop({ ...rest, type: "loop" }, path, issues);
  return { kind: "codon", ...checkCodon(rest, path, issues) };
}

function unknownTypeIssue(
  type: unknown,
  path: JsonPath,
  what: string,
  loopAllowed: boolean,
): ValidationIssue {
  const expected = loopAllowed ? '"codon" or "loop"' : '"codon"';
  return error(
    "unknown-item-type",
    path,
    `${what} has unknown type ${describeValue(type)}; expected ${expected}.`,
    loopAllowed
      ? 'Use "type": "loop" for a loop, or omit "type" for a codon.'
      : 'Omit "type" (or use "codon").',
  );
}

function rawId(item: Record<string, unknown>): string | undefined {
  return typeof item.id === "string" ? item.id : undefined;
}

function checkCodon(item: Record<string, unknown>, path: JsonPath, issues: ValidationIssue[]): CodonSlot {
  const parsed = parseWith(Codon, item);
  if (!parsed.ok)
    issues.push(...translateZodIssues(parsed.issues, { schema: Codon, raw: item, prefix: path }));
  const rawModel = typeof item.model === "string" ? item.model : undefined;
  const slot = { path, rawId: rawId(item), rawModel };
  if (parsed.ok) return { ...slot, codon: parsed.data };
  const rawFileRefs = {
    promptFile: parsedOrUndefined(FileRefs, item.promptFile),
    appendSystemPromptFile: parsedOrUndefined(FileRefs, item.appendSystemPromptFile),
    sentinels: parsedOrUndefined(Codon.shape.sentinels, item.sentinels),
  };
  return { ...slot, codon: undefined, rawFileRefs };
}

function checkLoop(item: Record<string, unknown>, path: JsonPath, issues: ValidationIssue[]): ItemSlot {
  const { codons, ...header } = item;
  const parsed = parseWith(LoopHeaderSchema, header);
  if (!parsed.ok)
    issues.push(
      ...translateZodIssues(parsed.issues, { schema: LoopHeaderSchema, raw: header, prefix: path }),
    );
  const id = rawId(item);
  return {
    kind: "loop",
    path,
    rawId: id,
    loop: parsed.ok ? parsed.data : undefined,
    codons: checkLoopBody(codons, [...path, "codons"], id ?? `#${String(path.at(-1))}`, issues),
  };
}

function checkLoopBody(
  codons: unknown,
  path: JsonPath,
  loopId: string,
  issues: ValidationIssue[],
): CodonSlot[] {
  if (codons === undefined) {
    issues.push(
      error(
        "missing-field",
        path,
        'Missing required field "codons".',
        'Add "codons": the codons run in every iteration.',
      ),
    );
    return [];
  }
  if (!Array.isArray(codons)) {
    issues.push(
      error(
        "invalid-type",
        path,
        `"codons" must be an array, not ${describeValue(codons)}.`,
        'Make "codons" an array of codons.',
      ),
    );
    return [];
  }
  if (codons.length === 0) {
    issues.push(
      error(
        "empty-loop",
        path,
        "Loop must contain at least one codon",
        'Add at least one codon to the loop\'s "codons" array.',
      ),
    );
  }
  return codons.map((child: unknown, j) => checkLoopChild(child, [...path, j], j, loopId, issues));
}

function checkLoopChild(
  child: unknown,
  path: JsonPath,
  index: number,
  loopId: string,
  issues: ValidationIssue[],
): CodonSlot {
  const what = `Item at index ${index} of loop "${loopId}"`;
  if (!isRecord(child)) {
    issues.push(error("invalid-item", path, `${what} must be an object (codon)`, "Write a codon object."));
    return { path, rawId: undefined, rawModel: undefined, codon: undefined };
  }
  if (child.type === "loop") {
    issues.push(
      error(
        "nested-loop",
        path,
        `Loops cannot be nested: ${what.toLowerCase()} is a loop.`,
        'Move the inner loop to the top level of the "hank" array, or put its codons directly in this loop.',
      ),
    );
    return { path, rawId: rawId(child), rawModel: undefined, codon: undefined };
  }
  if (child.type === undefined || child.type === "codon") return checkCodon(child, path, issues);
  issues.push(unknownTypeIssue(child.type, [...path, "type"], what, false));
  const { type: _ignored, ...rest } = child;
  return checkCodon(rest, path, issues);
}

function emptyView(): HankView {
  return {
    items: [],
    overrides: undefined,
    hankBudget: undefined,
    requirementsEnv: [],
    requirementsTools: [],
    globalSystemPromptFile: undefined,
    globalSystemPromptText: undefined,
  };
}

function parsedOrUndefined<T>(schema: Parameters<typeof parseWith<T>>[0], value: unknown): T | undefined {
  if (value === undefined) return undefined;
  const parsed = parseWith(schema, value);
  return parsed.ok ? parsed.data : undefined;
}

function buildView(raw: Record<string, unknown>, items: ItemSlot[]): HankView {
  const overridesRaw = isRecord(raw.overrides) ? raw.overrides : {};
  const requirementsRaw = isRecord(raw.requirements) ? raw.requirements : {};
  const reqShape = Requirements.shape;
  return {
    items,
    overrides: parsedOrUndefined(Overrides, raw.overrides),
    hankBudget: parsedOrUndefined(ContainerBudget, overridesRaw.budget),
    requirementsEnv: parsedOrUndefined(reqShape.env, requirementsRaw.env) ?? [],
    requirementsTools: parsedOrUndefined(reqShape.tools, requirementsRaw.tools) ?? [],
    globalSystemPromptFile: parsedOrUndefined(FileRefs, raw.globalSystemPromptFile),
    globalSystemPromptText:
      typeof raw.globalSystemPromptText === "string" ? raw.globalSystemPromptText : undefined,
  };
}
