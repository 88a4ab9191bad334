/**
 * `node --import tsx bench/profile-summary.ts <file.cpuprofile> [filter]`: where a `--cpu-prof` profile
 * spent its time: self time by function and by file, and inclusive time by function (each function
 * counted once per sample, recursion included), the last list limited to frames whose label contains
 * `filter` (e.g. `src/`).
 */
import { readFileSync } from "node:fs";
import type { CpuProfile, ProfileNode } from "./lib/cpu-profile-share.ts";

const [file, filter = ""] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write("usage: profile-summary.ts <file.cpuprofile> [filter]\n");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const where = (node: ProfileNode): string =>
  node.callFrame.url.replace(/^.*?\/(src|bench|dist|node_modules)\//, "$1/");
const label = (node: ProfileNode): string =>
  `${node.callFrame.functionName || "(anonymous)"} ${where(node)}:${node.callFrame.lineNumber + 1}`;

const self = new Map<string, number>();
const perFile = new Map<string, number>();
const inclusive = new Map<string, number>();
const add = (map: Map<string, number>, key: string, ms: number): void => {
  map.set(key, (map.get(key) ?? 0) + ms);
};
profile.samples.forEach((id, index) => {
  const ms = (profile.timeDeltas[index] ?? 0) / 1000;
  const node = byId.get(id);
  if (node === undefined) return;
  add(self, label(node), ms);
  add(perFile, where(node) || `(${node.callFrame.functionName})`, ms);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at);
    if (frame === undefined) break;
    const key = label(frame);
    if (!seen.has(key)) add(inclusive, key, ms);
    seen.add(key);
  }
});

const total = (profile.endTime - profile.startTime) / 1000;
const top = (map: Map<string, number>, count: number, only = ""): string =>
  [...map]
    .filter(([key]) => key.includes(only))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([key, ms]) =>
        `${ms.toFixed(0).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${key}`,
    )
    .join("\n");
process.stdout.write(
  `total ${total.toFixed(0)} ms\n\nself, by function\n${top(self, 25)}\n\nself, by file\n${top(perFile, 20)}\n\n` +
    `inclusive, by function${filter === "" ? "" : ` (matching "${filter}")`}\n${top(inclusive, 40, filter)}\n`,
);
