import { startDaemon } from "../../daemon/index.ts";
import { systemClock } from "../../util/clock.ts";
import type { LoopsContext } from "./loops-context.ts";

/** `hankweave daemon`: runs until SIGINT/SIGTERM; live runs stay live and the next daemon resumes them. */
export async function daemonVerb(context: LoopsContext, host: string, port: number): Promise<number> {
  const daemon = await startDaemon({
    store: context.store,
    dbPath: context.dbPath,
    home: context.home,
    clock: systemClock(),
    env: context.io.env,
    limitConfig: context.limitConfig,
    host,
    port,
    log: (line) => context.warn(`${new Date().toISOString()} ${line}`),
  });
  context.print(daemon.url);
  await new Promise<void>((resolve) => {
    if (context.io.signal === undefined) return;
    if (context.io.signal.aborted) resolve();
    context.io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await daemon.close();
  return 0;
}
