/**
 * The base environment of a conformance run's agents: what a child process needs to work (PATH, HOME,
 * TMPDIR, LANG), taken from this process, and nothing else. NODE_EXTRA_CA_CERTS stays out on purpose:
 * the agents only talk to a local fake server, and the variable costs every Node start about 85 ms.
 */
export function baseAgentEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
