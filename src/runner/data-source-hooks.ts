import type { EngineHooks, EventSink, HookResult } from "../engine/index.ts";
import {
  DataSourceWatch,
  type DataWatchResult,
  describeDataSourceChange,
} from "../workspace/execution/data-watch.ts";

export interface DataSourceHooksInput {
  /** The data source as the agent sees it: the workspace's `read_only_data_source`. */
  readonly dataPath: string;
  readonly sink: EventSink;
}

const OK: HookResult = { ok: true };

/**
 * Adds the read-only data source check to a run's hooks: a walk when the run starts, another after each
 * codon, and a journaled warning (`code: "data-source-changed"`) naming what changed and during which
 * codon. The run goes on: the data may have been changed on purpose.
 */
export function withDataSourceWatch(hooks: EngineHooks, input: DataSourceHooksInput): EngineHooks {
  const watch = new DataSourceWatch(input.dataPath);
  let readable = true;
  const report = (result: DataWatchResult, codon: string | undefined, during: string): void => {
    if (result.kind === "changed") {
      const message = describeDataSourceChange(result.change, input.dataPath, during);
      warn(input.sink, message, codon);
    } else if (result.kind === "unreadable" && readable) {
      warn(
        input.sink,
        `The read-only data source can no longer be read after ${during}: ${result.message}`,
        codon,
      );
    }
    readable = result.kind !== "unreadable";
  };
  return {
    ...hooks,
    async startRun(runId) {
      const started = (await hooks.startRun?.(runId)) ?? OK;
      if (started.ok) readable = watch.baseline().kind !== "unreadable";
      return started;
    },
    async finishCodon(context) {
      const finished = (await hooks.finishCodon?.(context)) ?? OK;
      const codon = context.entry.runtimeId;
      report(watch.check(), codon, `codon ${codon}`);
      return finished;
    },
  };
}

function warn(sink: EventSink, message: string, codon: string | undefined): void {
  sink.emit("error", {
    message,
    ...(codon !== undefined && { codon }),
    fatal: false,
    severity: "warning",
    context: "data source",
    code: "data-source-changed",
  });
}
