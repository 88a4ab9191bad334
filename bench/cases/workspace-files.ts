import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Layout of reference/performance-floors.md section 2: 100 files per leaf, 10 leaves per top directory. */
const PER_LEAF = 100;
const LEAVES_PER_TOP = 10;

/** The path (relative) of file `i` of a benchmark workspace. */
export function workspaceFile(i: number): string {
  const leaf = Math.floor(i / PER_LEAF);
  return `d${Math.floor(leaf / LEAVES_PER_TOP)}/e${leaf % LEAVES_PER_TOP}/f${i}.txt`;
}

/** Fills `root` with `count` small files (about 125 bytes each) laid out as `d<top>/e<leaf>/f<i>.txt`. */
export function createWorkspaceFiles(root: string, count: number): void {
  const body = "a small file of a benchmark workspace, one of many; its content does not matter. ".repeat(2);
  for (let i = 0; i < count; i++) {
    const path = workspaceFile(i);
    if (i % PER_LEAF === 0) mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), `${i} ${body.slice(0, 118)}\n`);
  }
}
