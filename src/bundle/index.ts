// Hank bundles (`pack`, `hank.lock`) and remote hank locations: what the CLI packs, and what a run
// resolves to a local, verified directory before it loads the hank.

export { cacheRoot } from "../util/cache-root.ts";
export { needsResolution } from "./location-kind.ts";
export { HankLock, LOCK_FILE } from "./lock.ts";
export { buildBundle, defaultBundleName, type PackPlan, planPack } from "./pack.ts";
export { type ResolvedLocation, resolveHankLocation } from "./resolve-location.ts";
export { verifyBundle } from "./verify.ts";
