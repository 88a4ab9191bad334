/**
 * The environment an agent, its rig commands and its beforeCopy commands run with (reference 1.16).
 *
 * Starting from the runtime's own environment, unchanged, each `HANKWEAVE_<NAME>=value` sets
 * `<NAME>=value`, and the literal value `unset` removes `<NAME>` instead. `HANKWEAVE_RUNTIME_*`
 * (runtime configuration) and `HANKWEAVE_SENTINEL_*` (sentinel-only provider keys) are not passed
 * through. The codon's `env` is applied last and wins. The `HANKWEAVE_*` variables themselves stay
 * in the environment, as they were.
 *
 * NODE_EXTRA_CA_CERTS is kept: agents and the tools they run reach provider APIs and package
 * registries over TLS, and a machine that sets it needs it there. (Only the runtime's own helper
 * Node processes, which make no TLS calls, should drop it to save its start-up cost.)
 */

const PREFIX = "HANKWEAVE_";
const NOT_PASSED_THROUGH = ["HANKWEAVE_RUNTIME_", "HANKWEAVE_SENTINEL_"];
/** The value that removes a variable instead of setting it. */
export const UNSET_VALUE = "unset";

export type EnvOverlay = ReadonlyArray<{ readonly name: string; readonly value: string | null }>;

/** The pass-through pairs, in the order of `processEnv`; a null value removes the variable. */
export function passThroughOverlay(processEnv: Readonly<Record<string, string | undefined>>): EnvOverlay {
  const overlay: Array<{ name: string; value: string | null }> = [];
  for (const [key, value] of Object.entries(processEnv)) {
    if (value === undefined || !key.startsWith(PREFIX)) continue;
    if (NOT_PASSED_THROUGH.some((prefix) => key.startsWith(prefix))) continue;
    const name = key.slice(PREFIX.length);
    if (name === "") continue;
    overlay.push({ name, value: value === UNSET_VALUE ? null : value });
  }
  return overlay;
}

/** Pure: a new object; neither argument is changed. */
export function buildAgentEnv(
  processEnv: Readonly<Record<string, string | undefined>>,
  codonEnv?: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...runAgentEnv(processEnv), ...codonEnv };
}

/**
 * The part of the agent environment every codon of a run shares: the process environment with the
 * HANKWEAVE_ overlay applied. A run computes it once; `withCodonEnv` adds each codon's own `env`.
 */
export function runAgentEnv(
  processEnv: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(processEnv)) {
    if (value !== undefined) env[key] = value;
  }
  for (const { name, value } of passThroughOverlay(processEnv)) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * The codon's `env` over the run's agent environment: the codon wins. A codon without `env` gets
 * `runEnv` itself, not a copy (a run freezes it), so the common case copies nothing per codon.
 */
export function withCodonEnv(
  runEnv: Readonly<Record<string, string>>,
  codonEnv?: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  if (codonEnv === undefined || Object.keys(codonEnv).length === 0) return runEnv;
  return { ...runEnv, ...codonEnv };
}
