import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

/**
 * Bubblewrap (Debian's `bubblewrap`): the argv that runs a command in a view of the machine where the
 * system is read-only, `/tmp` is empty, the `hidden` directories are empty, and only the listed paths
 * are bound back (read-only, then writable). Network off unshares it. The command keeps the process
 * group it is started in, so a stop or a timeout ends it with everything it started.
 */
export interface SandboxView {
  readonly cwd: string;
  /** Directories replaced by an empty one: the store, the daemon's home and token, the pinned contract. */
  readonly hidden: readonly string[];
  readonly readOnly: readonly string[];
  readonly writable: readonly string[];
  readonly network: boolean;
}

export const BWRAP = "/usr/bin/bwrap";

export function bwrapArgv(view: SandboxView, command: readonly string[]): string[] {
  const present = (paths: readonly string[]) => [...new Set(paths)].filter((p) => existsSync(p));
  return [
    BWRAP,
    "--die-with-parent",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    ...present(view.hidden)
      .filter((p) => statSync(p).isDirectory())
      .flatMap((p) => ["--tmpfs", p]),
    ...present(view.readOnly).flatMap((p) => ["--ro-bind", p, p]),
    ...present(view.writable).flatMap((p) => ["--bind", p, p]),
    ...(view.network ? [] : ["--unshare-net"]),
    "--chdir",
    view.cwd,
    "--",
    ...command,
  ];
}

/** What each bubblewrap binary asked answered: a probe costs a few milliseconds, once per process. */
const probed = new Map<string, string | undefined>();

/**
 * Undefined when bubblewrap (at `path`) is installed and can make its namespaces here; otherwise
 * what is wrong and how to fix it.
 */
export function bwrapProblem(path: string = BWRAP): string | undefined {
  if (probed.has(path)) return probed.get(path);
  let problem: string | undefined;
  if (!existsSync(path)) {
    problem = `${path} is missing: install Debian's bubblewrap (apt-get install bubblewrap), or set sandbox.kind = "none"`;
  } else {
    const probe = spawnSync(path, ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"], {
      encoding: "utf8",
      timeout: 10_000,
    });
    if (probe.status !== 0)
      problem = `${path} cannot create its namespaces here (${(probe.stderr ?? "").trim() || `exit ${probe.status}`}): allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), or set sandbox.kind = "none"`;
  }
  probed.set(path, problem);
  return problem;
}
