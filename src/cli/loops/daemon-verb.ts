import { startDaemon } from "../../daemon/index.ts";
import { SHARED_STORE_LEASE_TTL_MS } from "../../daemon/store/postgres-database.ts";
import { systemClock } from "../../util/clock.ts";
import type { LoopsContext } from "./loops-context.ts";

export interface DaemonFlags {
  readonly host: string;
  readonly port: number;
  /** Runs driven at a time; 0: no limit. */
  readonly workers: number;
}

/**
 * `hankweave daemon`: runs until SIGINT/SIGTERM, then drains: it claims no more runs, lets each
 * generation under way finish and hands its run back (live, lease released) to another daemon. A
 * second signal forces the exit; the runs stay live and the next driver resumes an interrupted
 * generation from its interrupted codon.
 */
export async function daemonVerb(context: LoopsContext, flags: DaemonFlags): Promise<number> {
  if (!Number.isInteger(flags.workers) || flags.workers < 0) {
    context.warn(`--workers must be a whole number of runs (0 for no limit), got ${flags.workers}.`);
    return 1;
  }
  const daemon = await startDaemon({
    store: context.store,
    dbPath: context.dbPath,
    stateDir: context.stateDir,
    home: context.home,
    clock: systemClock(),
    env: context.io.env,
    limitConfig: context.limitConfig,
    host: flags.host,
    port: flags.port,
    workers: flags.workers,
    ...(context.wakeUps !== undefined && { wakeUps: context.wakeUps }),
    // A shared store: daemons may be on several machines (see `DaemonOptions.leaseTtlMs`).
    ...(context.sharedStore === true && { leaseTtlMs: SHARED_STORE_LEASE_TTL_MS }),
    log: (line) => context.warn(`${new Date().toISOString()} ${line}`),
  });
  context.print(context.json ? JSON.stringify({ url: daemon.url }) : daemon.url);
  await new Promise<void>((resolve) => {
    if (context.io.signal === undefined) return;
    if (context.io.signal.aborted) resolve();
    context.io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  context.warn(
    `${new Date().toISOString()} draining: finishing the generations under way, then handing their runs back`,
  );
  await daemon.drain();
  return 0;
}
