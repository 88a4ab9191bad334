/** A dollar and time ceiling from one source. */
export interface CeilingValues {
  readonly maxDollars?: number | undefined;
  readonly maxTimeSeconds?: number | undefined;
}

export interface CeilingSources {
  /** `hankweave.json` budget. */
  readonly runtime?: CeilingValues | undefined;
  /** The hank's `overrides.budget`. */
  readonly hank?: CeilingValues | undefined;
  /** `--max-cost` and `--max-time`. */
  readonly cli?: CeilingValues | undefined;
}

/**
 * The run's global ceiling (reference 1.8): the lower of the runtime and hank values; a CLI flag, when
 * given, replaces that value (it may raise it as well as lower it).
 */
export function effectiveCeiling(sources: CeilingSources): CeilingValues {
  const pick = (key: keyof CeilingValues): number | undefined =>
    sources.cli?.[key] ?? lowest(sources.runtime?.[key], sources.hank?.[key]);
  const maxDollars = pick("maxDollars");
  const maxTimeSeconds = pick("maxTimeSeconds");
  return {
    ...(maxDollars !== undefined && { maxDollars }),
    ...(maxTimeSeconds !== undefined && { maxTimeSeconds }),
  };
}

function lowest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
