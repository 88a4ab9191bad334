import { type ValidationIssue, warning } from "../issues.ts";
import type { PlacedCodon } from "./hank-view.ts";
import { isSecretName, secretShape, shownEnvValue } from "./secrets.ts";
import type { EnvPassthroughEntry } from "./validation-types.ts";

/**
 * Environment shown by validation: the `HANKWEAVE_` variables passed through to agents, and codon
 * `env` values, with secret-looking values masked.
 */

const PREFIX = "HANKWEAVE_";
const NOT_PASSED = ["HANKWEAVE_RUNTIME_", "HANKWEAVE_SENTINEL_"];

export { isSecretName } from "./secrets.ts";

/** The value as validation shows it: unchanged, or `****` for a secret (by name or by shape), never partly. */
export function maskSecret(name: string, value: string): string {
  return shownEnvValue(name, value);
}

/** `HANKWEAVE_<NAME>` variables (runtime and sentinel ones excepted), as the agent sees them, sorted. */
export function envPassthrough(env: Readonly<Record<string, string | undefined>>): EnvPassthroughEntry[] {
  const out: EnvPassthroughEntry[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || !key.startsWith(PREFIX)) continue;
    if (NOT_PASSED.some((p) => key.startsWith(p))) continue;
    const name = key.slice(PREFIX.length);
    if (name === "") continue;
    out.push({ name, shown: value === "unset" ? "unset" : maskSecret(name, value) });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Secrets written into hank.json travel with it into logs and checkpoints: a value under a
 * secret-looking name, or any value shaped like a credential. The value is never shown.
 */
export function checkCodonEnv(placed: PlacedCodon): ValidationIssue[] {
  const env = placed.codon.env ?? {};
  return Object.entries(env).flatMap(([name, value]) => {
    if (value === "") return [];
    const shape = secretShape(value);
    if (shape === undefined && !isSecretName(name)) return [];
    const looks = shape === undefined ? "looks like a secret" : `holds what looks like ${shape}`;
    return [
      warning(
        "env-secret-in-hank",
        [...placed.path, "env", name],
        `env ${name} ${looks} written into hank.json (value hidden); values there can reach logs and checkpoints.`,
        `Remove it from the hank and set HANKWEAVE_${name} in the environment; the agent receives it as ${name}.`,
      ),
    ];
  });
}
