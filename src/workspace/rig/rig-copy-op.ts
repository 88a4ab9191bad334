import { lstatSync } from "node:fs";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { checkCopySource, checkWorkspaceTarget, quotePath } from "../../hank/refs.ts";
import type { CopyRigOp } from "../../hank/schema/index.ts";
import { loadCopyExclusions } from "./copy-exclusions.ts";
import { copyTree } from "./copy-tree.ts";
import type { RigOpOutcome } from "./rig-op-outcome.ts";

export interface CopyOpContext {
  readonly hankDir: string;
  readonly agentRoot: string;
  readonly signal: AbortSignal;
}

/**
 * One `copy` operation: `from` must pass the strict hank-ref contract (checked again here, since the
 * hank directory may have changed since validation), `to` the workspace-target contract. An existing
 * target is removed first, so the result is exactly the source (minus excluded entries). A file
 * source is copied as named, even when the ignore rules would match it; a tree obeys them.
 */
export async function runCopyOp(copy: CopyRigOp["copy"], context: CopyOpContext): Promise<RigOpOutcome> {
  try {
    const exclusions = loadCopyExclusions(context.hankDir);
    const source = checkCopySource(context.hankDir, copy.from, {
      exclude: (inside, isDirectory) =>
        exclusions.excludes(`${sourcePath(copy.from)}/${inside}`, isDirectory),
    });
    if (!source.ok) return failed(source.message);
    const target = resolveTarget(copy.to, context.agentRoot, source.absolutePath);
    if (typeof target !== "string") return failed(target.problem);
    await rm(target, { recursive: true, force: true });
    await mkdir(dirname(target), { recursive: true });
    if (source.kind === "file") {
      await copyFile(source.absolutePath, target);
      return { kind: "done", copiedTo: target };
    }
    const tree = await copyTree(source.absolutePath, target, {
      hankPath: source.relativePath,
      exclude: (hankPath, isDirectory) => exclusions.excludes(hankPath, isDirectory),
      signal: context.signal,
    });
    if (tree.aborted) return { kind: "aborted" };
    const excluded = { entries: tree.excluded, source: exclusions.source };
    return { kind: "done", copiedTo: target, ...(tree.excluded.length > 0 ? { excluded } : {}) };
  } catch (caught) {
    return failed(`copy ${quotePath(copy.from)} to ${quotePath(copy.to)} failed: ${errorText(caught)}`);
  }
}

/** The ref normalized the way checkRef reports `relativePath` (`./a//b/../c` → `a/c`). */
function sourcePath(from: string): string {
  const kept: string[] = [];
  for (const part of from.split("/")) {
    if (part === "..") kept.pop();
    else if (part !== "" && part !== ".") kept.push(part);
  }
  return kept.join("/");
}

/**
 * The absolute target, or why it is refused: the workspace-target contract, plus what only the disk
 * can tell. A target may not be agentRoot itself (the removal would empty the workspace), may not
 * lie inside the source tree, and may not pass through a symlink already in agentRoot (an agent could
 * have planted one pointing outside).
 */
function resolveTarget(to: string, agentRoot: string, source: string): string | { problem: string } {
  const check = checkWorkspaceTarget(to);
  if (!check.ok) return { problem: check.message };
  if (check.normalized === ".") {
    return {
      problem: `Invalid target path ${quotePath(to)}: it names agentRoot itself; name a path inside it`,
    };
  }
  const target = join(resolve(agentRoot), check.normalized);
  if (`${target}${sep}`.startsWith(`${source}${sep}`)) {
    return { problem: `Invalid target path ${quotePath(to)}: it lies inside the copy source` };
  }
  const parts = check.normalized.split("/");
  for (let depth = 1; depth < parts.length; depth++) {
    const prefix = parts.slice(0, depth).join("/");
    if (isSymlink(join(agentRoot, prefix))) {
      return {
        problem: `Target path ${quotePath(to)} would write outside execution directory: "${prefix}" is a symlink`,
      };
    }
  }
  return target;
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function failed(message: string): RigOpOutcome {
  return { kind: "failed", failureType: "other", message, outputTail: [] };
}

function errorText(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}
