import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Where a CPU profile's busy time went, in milliseconds. */
export interface ProfileShare {
  /** Samples whose innermost attributable frame is hankweave's own code (the built `dist/`). */
  readonly runtimeMs: number;
  /** Samples whose innermost attributable frame is a dependency in `node_modules` (an agent SDK, pi). */
  readonly packagesMs: number;
  /** Busy samples with no attributable frame: garbage collection, the VM, I/O callbacks. */
  readonly unattributedMs: number;
}

/** A node of a `.cpuprofile` (V8's `Profiler.Profile`), with the fields the benches read. */
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

/** A `.cpuprofile` as `node --cpu-prof` writes it; times in microseconds. */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

type Owner = "runtime" | "packages";

/**
 * Reads the one `.cpuprofile` in `dir` (written by `node --cpu-prof --cpu-prof-dir <dir>`) and splits
 * its busy samples by owner. A sample belongs to the innermost frame on its stack whose script is
 * hankweave's (`/dist/`) or a package's (`node_modules/`), so a Node built-in called by the runtime
 * counts as the runtime's; idle samples are left out.
 */
export function profileShare(dir: string): ProfileShare {
  const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (file === undefined) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
  const owners = ownersByNode(profile.nodes);
  const totals = { runtime: 0, packages: 0, unattributed: 0 };
  profile.samples.forEach((id, index) => {
    const owner = owners.get(id);
    const micros = profile.timeDeltas[index] ?? 0;
    if (owner === "idle") return;
    totals[owner ?? "unattributed"] += micros;
  });
  return {
    runtimeMs: totals.runtime / 1000,
    packagesMs: totals.packages / 1000,
    unattributedMs: totals.unattributed / 1000,
  };
}

/** Each node's owner: its own script's, else its nearest caller's; idle samples are marked. */
function ownersByNode(nodes: readonly ProfileNode[]): Map<number, Owner | "idle" | undefined> {
  const owners = new Map<number, Owner | "idle" | undefined>();
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const visit = (id: number, inherited: Owner | undefined): void => {
    const node = byId.get(id);
    if (node === undefined) return;
    const own = ownerOf(node.callFrame.url) ?? inherited;
    owners.set(id, node.callFrame.functionName === "(idle)" ? "idle" : own);
    for (const child of node.children ?? []) visit(child, own);
  };
  const root = nodes[0];
  if (root !== undefined) visit(root.id, undefined);
  return owners;
}

function ownerOf(url: string): Owner | undefined {
  if (url.includes("/node_modules/")) return "packages";
  if (url.includes("/dist/")) return "runtime";
  return undefined;
}
