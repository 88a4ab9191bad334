import { dirname, isAbsolute } from "node:path";
import { bwrapArgv, type SandboxView } from "../sandbox/bwrap.ts";
import type { LoopRunRecord } from "../store/store-records.ts";
import { executionDirOf } from "./run-body.ts";

/**
 * Wraps a gate's, hook's or source's argv in the run's sandbox (unchanged when it has none). Inside,
 * the loops home (every run's directory and pinned contract), the store's and the daemon's
 * directories (`privateDirs`: its token) are empty; the program itself (a pinned script) and the data
 * are bound back read-only, and `cwd` read-only or writable (a gate's workspace).
 */
export type Wrap = (argv: readonly string[], cwd: string, cwdWritable: boolean) => readonly string[];

export function sandboxWrap(run: LoopRunRecord, privateDirs: readonly string[] = []): Wrap {
  const sandbox = run.contract.sandbox;
  if (sandbox === undefined || sandbox === null) return (argv) => argv;
  const hidden = [
    loopsHomeOf(run),
    ...privateDirs,
    ...(run.contract.pinnedDir ? [run.contract.pinnedDir] : []),
  ];
  return (argv, cwd, cwdWritable) => {
    const program = argv[0];
    const readOnly = [
      ...(program !== undefined && isAbsolute(program) ? [program] : []),
      ...(run.contract.body.data !== null ? [run.contract.body.data] : []),
      ...(cwdWritable ? [] : [cwd]),
    ];
    return bwrapArgv(
      { cwd, hidden, readOnly, writable: cwdWritable ? [cwd] : [], network: sandbox.network },
      argv,
    );
  };
}

/**
 * The view of a sandboxed body (undefined without a sandbox): its execution writable, its own pinned
 * hank and the data read-only; the loops home (the pinned contract, other runs), the store's and the
 * daemon's directories hidden.
 */
export function bodyView(
  run: LoopRunRecord,
  privateDirs: readonly string[] = [],
): ((runDir: string) => SandboxView) | undefined {
  const sandbox = run.contract.sandbox;
  if (sandbox === undefined || sandbox === null) return undefined;
  const hidden = [
    loopsHomeOf(run),
    ...privateDirs,
    ...(run.contract.pinnedDir ? [run.contract.pinnedDir] : []),
  ];
  const hank = run.contract.pins?.find((pin) => pin.kind === "tree")?.path;
  return (runDir) => ({
    cwd: executionDirOf(runDir),
    hidden,
    readOnly: [
      ...(hank !== undefined ? [hank] : []),
      ...(run.contract.body.data !== null ? [run.contract.body.data] : []),
    ],
    writable: [executionDirOf(runDir)],
    network: sandbox.network,
  });
}

/** `<home>/runs/<run id>` -> `<home>`. */
export function loopsHomeOf(run: Pick<LoopRunRecord, "dir">): string {
  return dirname(dirname(run.dir));
}
