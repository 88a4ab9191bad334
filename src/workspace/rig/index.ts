/** Rig setup: the copy and command operations that prepare agentRoot before a codon starts. */

export { type IgnoreRule, isIgnored, parseGitignore } from "../../util/gitignore-rules.ts";
export { type CopyExclusions, DEFAULT_COPY_IGNORES, loadCopyExclusions } from "./copy-exclusions.ts";
export { createOutputThrottle, type OutputThrottle, RIG_OUTPUT_INTERVAL_MS } from "./output-throttle.ts";
export type {
  RigEvent,
  RigFailureType,
  RigInfoData,
  RigOutputData,
  RigOutputStream,
  RigSetupCompletedData,
  RigSetupFailedData,
  RigWarningData,
} from "./rig-events.ts";
export {
  type RigFailure,
  type RigSetupDeps,
  type RigSetupInput,
  type RigSetupResult,
  runRigSetup,
} from "./run-rig-setup.ts";
