import { createRequire } from "node:module";
import type { Cron as CronClass } from "croner";

/**
 * croner, loaded on first use: the CLI bundle keeps it outside (with the other dependencies only some
 * commands need), and a static import there would load it on every start, `--help` included.
 */
let loaded: typeof CronClass | undefined;

export function cron(): typeof CronClass {
  loaded ??= (createRequire(import.meta.url)("croner") as { Cron: typeof CronClass }).Cron;
  return loaded;
}
