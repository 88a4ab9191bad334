import { inspectLock } from "../runner/index.ts";
import { executionLayout } from "../workspace/execution-layout.ts";

/** The port `--attach` uses when neither a port nor an execution is given, as in the reference. */
export const DEFAULT_ATTACH_PORT = 7777;

export type ServedPort =
  | { readonly ok: true; readonly port: number }
  | { readonly ok: false; readonly message: string };

/**
 * The port of the server serving an execution, read from its runtime lock: the live process records
 * it there once its server has bound. Refuses an execution with no live run, naming what to do.
 */
export function servedPortOf(executionDir: string): ServedPort {
  const layout = executionLayout(executionDir);
  // A watcher never holds the lock itself, so no PID counts as its own (the lock's owner may even be
  // this process, when a program serves a run and watches it).
  const lock = inspectLock(layout.lockPath, { pid: -1, now: Date.now() });
  switch (lock.status) {
    case "free":
      return {
        ok: false,
        message: `No run is live in ${executionDir} (no runtime lock). Look at how it went with: hankweave view ${executionDir} (or continue it with: hankweave --execution ${executionDir})`,
      };
    case "stale":
      return {
        ok: false,
        message: `The run in ${executionDir} is not live any more (${lock.reason}). Look at how it went with: hankweave view ${executionDir}`,
      };
    case "live":
      if (lock.holder.port === undefined || lock.holder.port === 0) {
        return {
          ok: false,
          message: `The run in ${executionDir} (PID ${lock.holder.pid}) has not recorded a server port yet; try again in a moment.`,
        };
      }
      return { ok: true, port: lock.holder.port };
  }
}
