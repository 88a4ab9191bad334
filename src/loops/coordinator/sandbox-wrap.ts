import { dirname, isAbsolute } from "node:path";
import { bwrapArgv, type SandboxView } from "../sandbox/bwrap.ts";
import type { LoopRunRecord } from "../store/store-records.ts";
import { executionDirOf } from "./run-body.ts";

/**
 * The run's sandbox views. Inside every one, the loops home (every run's directory and pinned
 * contract) and the store's and the daemon's directories (`privateDirs`: its token) are empty, and
 * the data is bound back read-only.
 */

/** Wraps a gate's, hook's or source's argv: its program (a pinned script) read-only, `cwd` too or writable. */
export type Wrap = (argv: readonly string[], cwd: string, cwdWritable: boolean) => readonly string[];

export function sandboxWrap(run: LoopRunRecord, privateDirs: readonly string[] = []): Wrap {
  const base = baseView(run, privateDirs);
  if (base === undefined) return (argv) => argv;
  return (argv, cwd, cwdWritable) => {
    const program = argv[0];
    const readOnly = [
      ...base.readOnly,
      ...(program !== undefined && isAbsolute(program) ? [program] : []),
      ...(cwdWritable ? [] : [cwd]),
    ];
    return bwrapArgv({ ...base, cwd, readOnly, writable: cwdWritable ? [cwd] : [] }, argv);
  };
}

/**
 * The view of a sandboxed body, by its run (or fan-out item) directory: its execution writable, its
 * own pinned hank read-only. Undefined without a sandbox: the body runs in-process.
 */
export function bodyView(
  run: LoopRunRecord,
  privateDirs: readonly string[] = [],
): ((runDir: string) => SandboxView) | undefined {
  const base = baseView(run, privateDirs);
  if (base === undefined) return undefined;
  const hank = run.contract.pins?.find((pin) => pin.kind === "tree")?.path;
  return (runDir) => ({
    ...base,
    cwd: executionDirOf(runDir),
    readOnly: [...base.readOnly, ...(hank !== undefined ? [hank] : [])],
    writable: [executionDirOf(runDir)],
  });
}

type BaseView = Omit<SandboxView, "cwd" | "writable">;

function baseView(run: LoopRunRecord, privateDirs: readonly string[]): BaseView | undefined {
  const { sandbox, pinnedDir, body } = run.contract;
  if (sandbox === undefined || sandbox === null) return undefined;
  return {
    hidden: [loopsHomeOf(run), ...privateDirs, ...(pinnedDir !== undefined ? [pinnedDir] : [])],
    readOnly: body.data !== null ? [body.data] : [],
    network: sandbox.network,
  };
}

/** `<home>/runs/<run id>` -> `<home>`. */
export function loopsHomeOf(run: Pick<LoopRunRecord, "dir">): string {
  return dirname(dirname(run.dir));
}
