import { type ValidationIssue, warning } from "../issues.ts";
import type { PlacedCodon } from "./hank-view.ts";
import type { EnvPassthroughEntry } from "./validation-types.ts";

/**
 * Environment shown by validation: the `HANKWEAVE_` variables passed through to agents, and codon
 * `env` values, with secret-looking values masked.
 */

const SECRET_WORDS = ["SECRET", "TOKEN", "KEY", "PASSWORD", "PASS", "CREDENTIAL", "AUTH", "PRIVATE"];
const PUBLIC_WORDS = ["PUBLIC", "PUBLISHABLE"];
const PREFIX = "HANKWEAVE_";
const NOT_PASSED = ["HANKWEAVE_RUNTIME_", "HANKWEAVE_SENTINEL_"];

/** Whether a variable name looks like it holds a secret (`API_KEY` yes, `STRIPE_PUBLISHABLE_KEY` no). */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (PUBLIC_WORDS.some((w) => upper.includes(w))) return false;
  return SECRET_WORDS.some((w) => upper.includes(w));
}

/**
 * The value as validation shows it: unchanged for ordinary names; for secret-looking names `****`
 * followed by the last 4 characters, or `****` alone when the value is too short to show any of it.
 */
export function maskSecret(name: string, value: string): string {
  if (!isSecretName(name)) return value;
  return value.length > 8 ? `****${value.slice(-4)}` : "****";
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

/** Secrets written into hank.json travel with it into logs and checkpoints. */
export function checkCodonEnv(placed: PlacedCodon): ValidationIssue[] {
  const env = placed.codon.env ?? {};
  return Object.entries(env)
    .filter(([name, value]) => isSecretName(name) && value !== "")
    .map(([name, value]) =>
      warning(
        "env-secret-in-hank",
        [...placed.path, "env", name],
        `env ${name}=${maskSecret(name, value)} looks like a secret written into hank.json; values there can reach logs and checkpoints.`,
        `Remove it from the hank and set HANKWEAVE_${name} in the environment; the agent receives it as ${name}.`,
      ),
    );
}
