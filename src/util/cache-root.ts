import { homedir } from "node:os";
import { join } from "node:path";

/** The variable that moves hankweave's cache (inline inputs, bundles, fetched hanks, the bin's code cache). */
export const CACHE_DIR_ENV = "HANKWEAVE_RUNTIME_CACHE_DIR";

/** `<HANKWEAVE_RUNTIME_CACHE_DIR or ~/.hankweave-cache>`: every cache of hankweave lives below it. */
export function cacheRoot(env: Readonly<Record<string, string | undefined>>): string {
  return env[CACHE_DIR_ENV] ?? join(env.HOME ?? homedir(), ".hankweave-cache");
}
