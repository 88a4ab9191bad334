import { LIMIT_KEYS, type LimitKey } from "../loops/index.ts";

/**
 * The body of `POST /loops/<id>/runs`, read strictly: an idempotency key, an admit-anyway reason, and
 * limit overrides (`set`, which admission lets only tighten). Any other field is refused rather than
 * ignored, and a cost field is refused by name: cost is a meter, never a cap, on every surface.
 */
export interface StartForm {
  readonly idempotencyKey?: string;
  readonly admitAnyway?: string;
  readonly overrides?: Partial<Record<LimitKey, number>>;
}

export const START_FORM_CODES = ["not-an-object", "cost-field", "unknown-field", "bad-value"] as const;
export type StartFormCode = (typeof START_FORM_CODES)[number];

export type StartFormResult =
  | { readonly ok: true; readonly form: StartForm }
  | { readonly ok: false; readonly code: StartFormCode; readonly error: string };

const FIELDS = ["idempotencyKey", "admitAnyway", "set"];
const COST = /cost|usd|dollar|price/i;

export function parseStartForm(body: Record<string, unknown> | undefined): StartFormResult {
  if (body === undefined) return refuse("not-an-object", "the body must be a JSON object");
  const keys = [...Object.keys(body), ...Object.keys(isObject(body.set) ? body.set : {})];
  const cost = keys.find((key) => COST.test(key));
  if (cost !== undefined)
    return refuse(
      "cost-field",
      `${cost}: a Loop has no cost cap (cost is a meter); bound spend with set.budget_tokens or set.iteration_cap`,
    );
  const unknown = Object.keys(body).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined)
    return refuse("unknown-field", `${unknown}: not a field; use ${FIELDS.join(", ")}`);
  for (const key of ["idempotencyKey", "admitAnyway"] as const) {
    if (body[key] !== undefined && typeof body[key] !== "string")
      return refuse("bad-value", `${key}: must be a string`);
  }
  const overrides = parseSet(body.set);
  if (typeof overrides === "string") return refuse("bad-value", overrides);
  const key = body.idempotencyKey as string | undefined;
  return {
    ok: true,
    form: {
      ...(key !== undefined && key !== "" && { idempotencyKey: key }),
      ...(body.admitAnyway !== undefined && { admitAnyway: body.admitAnyway as string }),
      ...(overrides !== undefined && { overrides }),
    },
  };
}

function parseSet(set: unknown): Partial<Record<LimitKey, number>> | string | undefined {
  if (set === undefined) return undefined;
  if (!isObject(set)) return "set: must be an object of limit: whole number";
  const out: Partial<Record<LimitKey, number>> = {};
  for (const [key, value] of Object.entries(set)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key))
      return `set.${key}: not a limit; use one of ${LIMIT_KEYS.join(", ")}`;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
      return `set.${key}: must be a whole number`;
    out[key as LimitKey] = value;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuse(code: StartFormCode, error: string): StartFormResult {
  return { ok: false, code, error };
}
