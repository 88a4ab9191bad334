import { type Dirent, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type ExecutionLayout, executionLayout } from "../execution-layout.ts";
import { tempDir } from "../process/test-support.ts";

/** Shared by the output and archive tests: an execution directory in a temp dir, and file helpers. */

export const TEST_PATH = process.env.PATH ?? "/usr/bin:/bin";
/** 2023-11-14T22:13:20.000Z: renamed names carry `_1700000000`. */
export const FIXED_MS = 1_700_000_000_000;

export interface WorkspaceFixture {
  /** The temp dir holding everything; `outside` in it plays the rest of the machine. */
  readonly root: string;
  readonly layout: ExecutionLayout;
  readonly agentRoot: string;
  readonly outputDir: string;
  readonly outside: string;
  /** Writes a file (path relative to `base`), creating its directories. */
  write(base: string, path: string, text?: string): void;
  remove(): void;
}

export function workspaceFixture(): WorkspaceFixture {
  const temp = tempDir("outputs");
  const layout = executionLayout(join(temp.dir, "exec"));
  const outside = join(temp.dir, "outside");
  mkdirSync(layout.agentRoot, { recursive: true });
  mkdirSync(layout.stateDir, { recursive: true });
  mkdirSync(outside);
  return {
    root: temp.dir,
    layout,
    agentRoot: layout.agentRoot,
    outputDir: join(temp.dir, "out"),
    outside,
    write(base, path, text = "") {
      const full = join(base, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    },
    remove: temp.remove,
  };
}

/** Every file and link below `dir`, relative and sorted; an empty directory appears as `name/`. */
export function listTree(dir: string, prefix = ""): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (!entry.isDirectory()) out.push(rel);
    else {
      const below = listTree(dir, rel);
      out.push(...(below.length === 0 ? [`${rel}/`] : below));
    }
  }
  return out;
}
