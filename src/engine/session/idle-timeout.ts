/**
 * Seconds of agent silence after which the engine stops a session when neither the codon, the hank,
 * the command line nor the harness sets it. Each harness declares its own default in its descriptor
 * (the reference runtime's: 180 s for the Claude SDK, 120 s for pi).
 */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 180;

/** Where an idle timeout can be set, most specific first; each is in seconds. */
export interface IdleTimeoutSources {
  /** The codon's `shimIdleTimeout`. */
  readonly codon: number | undefined;
  /** The hank's `overrides.shimIdleTimeout`. */
  readonly hank: number | undefined;
  /** `--shim-idle-timeout` on the command line. */
  readonly cli: number | undefined;
  /** The default the codon's harness declares, if it declares one. */
  readonly harnessDefault: number | undefined;
}

/** The idle timeout in milliseconds: the codon's, else the hank's, else the command line's, else the default. */
export function idleTimeoutMs(sources: IdleTimeoutSources): number {
  const seconds =
    sources.codon ?? sources.hank ?? sources.cli ?? sources.harnessDefault ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
  return seconds * 1000;
}
