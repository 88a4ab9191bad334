import { distance } from "fastest-levenshtein";
import { z } from "zod";
import { category, EVENT_TYPES, isEventType, JournaledEventSchema } from "../../events/index.ts";
import { error, type JsonPath, type ValidationIssue } from "../issues.ts";
import type { SentinelCondition, SentinelTrigger } from "../schema/index.ts";

/**
 * A sentinel's trigger against the event catalogue: every event type it names is one a sentinel can
 * see (journaled, and not itself a sentinel event), every pattern step can enter the sequence's
 * history, every condition path can exist in the payload of the types it applies to, and every
 * `matches` pattern compiles. Paths are dotted keys into the event's `data`.
 */
export function checkSentinelTrigger(trigger: SentinelTrigger, at: JsonPath, id: string): ValidationIssue[] {
  const where = [...at, "trigger"];
  if (trigger.type === "event") {
    return [
      ...trigger.on.flatMap((type, i) => typeIssues(type, [...where, "on", i], id)),
      ...conditionIssues(trigger.conditions ?? [], trigger.on, [...where, "conditions"], id),
    ];
  }
  const interest = trigger.interestFilter.on;
  const issues = interest.flatMap((type, i) => typeIssues(type, [...where, "interestFilter", "on", i], id));
  trigger.pattern.forEach((step, i) => {
    const stepAt = [...where, "pattern", i];
    const stepType = typeIssues(step.type, [...stepAt, "type"], id);
    issues.push(...stepType);
    if (
      stepType.length === 0 &&
      step.type !== "*" &&
      !interest.includes("*") &&
      !interest.includes(step.type)
    ) {
      issues.push(
        error(
          "sentinel-pattern-outside-interest",
          [...stepAt, "type"],
          `Sentinel "${id}": pattern step ${i} expects "${step.type}", which interestFilter.on leaves out, so the sequence can never complete`,
          `Add "${step.type}" to trigger.interestFilter.on.`,
        ),
      );
    }
    issues.push(...conditionIssues(step.conditions ?? [], [step.type], [...stepAt, "conditions"], id));
  });
  return issues;
}

/** The payload schema of each event type a sentinel can observe. */
const PAYLOADS: ReadonlyMap<string, z.ZodType> = new Map(
  JournaledEventSchema.options
    .filter((option) => category(option.shape.type.value) !== "sentinel")
    .map((option) => [option.shape.type.value, option.shape.data]),
);

function typeIssues(type: string, at: JsonPath, id: string): ValidationIssue[] {
  if (type === "*" || PAYLOADS.has(type)) return [];
  if (isEventType(type) && category(type) === "sentinel") {
    return [
      error(
        "sentinel-event-type-never-seen",
        at,
        `Sentinel "${id}": "${type}" is a sentinel event, and sentinel events never trigger sentinels`,
        "Observe the codon's own events instead (assistant.action, tool.result, file.updated...).",
      ),
    ];
  }
  if (isEventType(type)) {
    return [
      error(
        "sentinel-event-type-never-seen",
        at,
        `Sentinel "${id}": "${type}" is a per-client connection event, never journaled, so no sentinel sees it`,
        "Observe a journaled event instead.",
      ),
    ];
  }
  const near = nearestType(type);
  return [
    error(
      "sentinel-event-type-unknown",
      at,
      `Sentinel "${id}": unknown event type "${type}"`,
      near === undefined
        ? 'Use an event type of the catalogue, or "*" for every event.'
        : `Did you mean "${near}"?`,
    ),
  ];
}

function nearestType(type: string): string | undefined {
  let best: { type: string; d: number } | undefined;
  for (const candidate of EVENT_TYPES) {
    const d = distance(type.toLowerCase(), candidate.toLowerCase());
    if (d <= 3 && (best === undefined || d < best.d)) best = { type: candidate, d };
  }
  return best?.type;
}

function conditionIssues(
  conditions: readonly SentinelCondition[],
  types: readonly string[],
  at: JsonPath,
  id: string,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const known = types.filter((type) => PAYLOADS.has(type));
  const checkPaths = !types.includes("*") && known.length === types.length;
  conditions.forEach((condition, i) => {
    if (checkPaths && !known.some((type) => payloadHasPath(type, condition.path))) {
      issues.push(pathIssue(condition.path, known, [...at, i, "path"], id));
    }
    if (condition.operator === "matches") {
      const problem = regexProblem(condition.value);
      if (problem !== undefined) {
        issues.push(
          error(
            "sentinel-condition-regex",
            [...at, i, "value"],
            `Sentinel "${id}": "matches" pattern ${JSON.stringify(condition.value)} is not a valid regular expression: ${problem}`,
            'Write a JavaScript regular expression without the surrounding slashes, e.g. "(rm -rf|mkfs)".',
          ),
        );
      }
    }
  });
  return issues;
}

function pathIssue(path: string, types: readonly string[], at: JsonPath, id: string): ValidationIssue {
  const fields = types.map((type) => `${type}: ${topFields(type).join(", ")}`).join("; ");
  return error(
    "sentinel-condition-path",
    at,
    `Sentinel "${id}": condition path "${path}" cannot exist in the payload of ${types.join(", ")}`,
    `Paths are dotted keys into the event's data (${fields}).`,
  );
}

function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (caught) {
    return caught instanceof Error ? caught.message : String(caught);
  }
}

/** Whether the dotted path can hold a value in some payload of the event type. */
export function payloadHasPath(type: string, path: string): boolean {
  const schema = PAYLOADS.get(type);
  return schema !== undefined && schemaHasPath(schema, path.split("."));
}

function schemaHasPath(schema: z.core.$ZodType, parts: readonly string[]): boolean {
  const [head, ...rest] = parts;
  if (head === undefined) return true;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    const child = inner.shape[head];
    return child !== undefined && schemaHasPath(child, rest);
  }
  if (inner instanceof z.ZodUnion) return inner.options.some((option) => schemaHasPath(option, parts));
  if (inner instanceof z.ZodRecord) return schemaHasPath(inner.valueType, rest);
  if (inner instanceof z.ZodArray) return /^\d+$/.test(head) && schemaHasPath(inner.element, rest);
  return inner instanceof z.ZodUnknown || inner instanceof z.ZodAny;
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodDefault
  ) {
    current = current.unwrap();
  }
  return current;
}

function topFields(type: string): string[] {
  const schema = PAYLOADS.get(type);
  const inner = schema === undefined ? undefined : unwrap(schema);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}
