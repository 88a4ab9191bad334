import { LIMIT_KEYS, type LimitKey } from "../../events/loop-words.ts";
import type { LoopKind } from "../definition/definition-schema.ts";
import type { LoopDefinition } from "../definition/load-definition.ts";
import type { SandboxSetting } from "./sandbox-setting.ts";

export { LIMIT_KEYS, type LimitKey };

/**
 * Every stop limit of a run: a per-kind default, a daemon ceiling, and the value a run uses. The value
 * is the per-run override, else the definition, else the configured default, else the built-in
 * default; then it is clamped to the ceiling (0 means unbounded and counts as the loosest value, so a
 * ceiling clamps it too). Overrides may tighten a limit, never loosen it past the ceiling.
 */

export type LimitValues = Readonly<Record<LimitKey, number>>;
export type PartialLimits = Partial<Record<LimitKey, number>>;

/** Built-in per-kind defaults. 0 = unbounded (iteration cap) or off (budgets). */
export const BUILTIN_DEFAULTS: Readonly<Record<LoopKind, LimitValues>> = {
  delivery: {
    iteration_cap: 50,
    budget_tokens: 0,
    budget_wall_clock_sec: 0,
    window: 3,
    inactivity_sec: 3600,
    failure_breaker: 3,
    fan_out_width: 4,
    gate_max_revisions: 10,
    silence_window_sec: 86_400,
  },
  watch: {
    iteration_cap: 0,
    budget_tokens: 0,
    budget_wall_clock_sec: 0,
    window: 2,
    inactivity_sec: 3600,
    failure_breaker: 3,
    fan_out_width: 2,
    gate_max_revisions: 10,
    silence_window_sec: 86_400,
  },
};

/** Built-in daemon ceilings; a limit missing here has none. */
export const BUILTIN_CEILINGS: PartialLimits = {
  window: 30,
  fan_out_width: 64,
  gate_max_revisions: 64,
  inactivity_sec: 86_400,
  failure_breaker: 10,
  silence_window_sec: 604_800,
};

/** The configured layers (`~/.hankweave/config.toml`): per-kind defaults and ceilings. */
export interface LimitConfig {
  readonly defaults?: Readonly<Partial<Record<LoopKind, PartialLimits>>>;
  readonly ceilings?: PartialLimits;
  /** The daemon's default sandbox (`[loops.sandbox]`), for definitions without `[sandbox]`. */
  readonly sandbox?: SandboxSetting;
}

export interface ClampWarning {
  readonly key: LimitKey;
  readonly asked: number;
  readonly ceiling: number;
  readonly message: string;
}

export interface ResolvedLimits {
  readonly values: LimitValues;
  readonly ceilings: PartialLimits;
  readonly warnings: readonly ClampWarning[];
}

/** What the definition says about each limit (undefined: it says nothing). */
export function definitionLimits(definition: LoopDefinition): PartialLimits {
  const { contract } = definition;
  const out: PartialLimits = {};
  const put = (key: LimitKey, value: number | undefined): void => {
    if (value !== undefined) out[key] = value;
  };
  put("iteration_cap", contract.iteration_cap);
  put("budget_tokens", contract.budget?.tokens);
  put("budget_wall_clock_sec", contract.budget?.wall_clock_sec);
  put("window", contract.no_progress?.window);
  put("inactivity_sec", contract.no_progress?.inactivity_sec);
  put("failure_breaker", contract.no_progress?.failure_breaker);
  put("fan_out_width", definition.fan_out?.width);
  put("silence_window_sec", definition.watch?.silence_window_sec);
  return out;
}

/** Pure: the values a run uses, and a warning for each value a ceiling clamped. */
export function resolveLimits(
  kind: LoopKind,
  fromDefinition: PartialLimits,
  config: LimitConfig = {},
  overrides: PartialLimits = {},
): ResolvedLimits {
  const ceilings: PartialLimits = { ...BUILTIN_CEILINGS, ...config.ceilings };
  const configured = config.defaults?.[kind] ?? {};
  const values = {} as Record<LimitKey, number>;
  const warnings: ClampWarning[] = [];
  for (const key of LIMIT_KEYS) {
    const asked = overrides[key] ?? fromDefinition[key] ?? configured[key] ?? BUILTIN_DEFAULTS[kind][key];
    const clamped = clamp(asked, ceilings[key]);
    values[key] = clamped;
    const ceiling = ceilings[key];
    if (clamped !== asked && ceiling !== undefined) {
      const shown = asked === 0 ? "0 (unbounded)" : String(asked);
      warnings.push({
        key,
        asked,
        ceiling,
        message: `${key} = ${shown} is above the daemon ceiling; clamped to ${ceiling}.`,
      });
    }
  }
  return { values, ceilings, warnings };
}

/** 0 is unbounded: the loosest value, so any ceiling clamps it. */
export function clamp(value: number, ceiling: number | undefined): number {
  if (ceiling === undefined || ceiling <= 0) return value;
  if (value === 0 || value > ceiling) return ceiling;
  return value;
}

/** An override that would loosen what the definition (or its default) asks: refused at admission. */
export interface Loosening {
  readonly key: LimitKey;
  readonly asked: number;
  readonly current: number;
  readonly message: string;
}

/**
 * Pure: the overrides that loosen a limit. An override only tightens: a smaller nonzero value, or any
 * nonzero value where the limit is unbounded (0); 0 or a larger value loosens it.
 */
export function looseningOverrides(
  kind: LoopKind,
  fromDefinition: PartialLimits,
  config: LimitConfig = {},
  overrides: PartialLimits = {},
): Loosening[] {
  const base = resolveLimits(kind, fromDefinition, config).values;
  const out: Loosening[] = [];
  for (const key of LIMIT_KEYS) {
    const asked = overrides[key];
    if (asked === undefined) continue;
    const current = base[key];
    const tighter = asked !== 0 && (current === 0 || asked <= current);
    if (tighter) continue;
    out.push({
      key,
      asked,
      current,
      message: `The override ${key}=${asked} would loosen the definition's ${key} = ${current === 0 ? "0 (unbounded)" : current}; an override may only tighten it (a nonzero value${current === 0 ? "" : ` of at most ${current}`}).`,
    });
  }
  return out;
}

/** A gate whose own max_revisions a ceiling clamps: one message each, shown at admission. */
export function gateClampWarnings(
  gates: ReadonlyArray<{ readonly id: string; readonly max_revisions?: number | undefined }>,
  limits: ResolvedLimits,
): string[] {
  const ceiling = limits.ceilings.gate_max_revisions;
  return gates.flatMap((gate) => {
    const own = gate.max_revisions;
    if (own === undefined || ceiling === undefined || clamp(own, ceiling) === own) return [];
    return [`gate ${gate.id}: max_revisions = ${own} is above the daemon ceiling; clamped to ${ceiling}.`];
  });
}

/** The gate's own max_revisions, else the run's, clamped to the ceiling. */
export function gateMaxRevisions(own: number | undefined, limits: ResolvedLimits): number {
  return clamp(own ?? limits.values.gate_max_revisions, limits.ceilings.gate_max_revisions);
}

/** `∞` for an unbounded (0) cap, the number otherwise: how pages and `show` print a cap. */
export function showCap(value: number): string {
  return value === 0 ? "∞" : String(value);
}
