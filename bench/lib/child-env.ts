/**
 * The environment of the processes a benchmark starts. `NODE_EXTRA_CA_CERTS` makes every Node start
 * about 85 ms slower (reference/performance-floors.md), and nothing here needs TLS, so it is dropped
 * unless a figure measures its effect on purpose.
 */
export function childEnv(
  base: Readonly<Record<string, string | undefined>>,
  keepCaCerts = false,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (!keepCaCerts && key === "NODE_EXTRA_CA_CERTS") continue;
    env[key] = value;
  }
  return env;
}
