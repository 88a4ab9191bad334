import { error, type JsonPath, type ValidationIssue } from "../issues.ts";
import {
  checkCopySource,
  checkWorkspaceGlob,
  checkWorkspaceTarget,
  REF_HINTS,
  WORKSPACE_PATH_HINTS,
} from "../refs.ts";
import type { HankView, PlacedCodon } from "./hank-view.ts";

/**
 * Paths a codon moves files along: rig copy sources (strict hank refs, checked on disk), copy targets
 * and the workspace globs of checkpointedFiles, archiveOnSuccess and outputFiles (pure string rules;
 * the workspace does not exist at validation, so "target already exists" is a run-time notice).
 */
export function checkCodonPaths(placed: PlacedCodon, hankDir: string): ValidationIssue[] {
  const { codon, path } = placed;
  const out: ValidationIssue[] = [];
  codon.rigSetup?.forEach((op, k) => {
    if (op.type !== "copy") return;
    const at: JsonPath = [...path, "rigSetup", k, "copy"];
    const source = safely(() => checkCopySource(hankDir, op.copy.from));
    if (!source.ok) {
      const issue = error(
        `ref-${source.rule}`,
        [...at, "from"],
        `Rig setup item ${k + 1}: ${source.message}`,
        REF_HINTS[source.rule],
      );
      out.push(source.absolutePath === undefined ? issue : { ...issue, file: source.absolutePath });
    }
    const target = checkWorkspaceTarget(op.copy.to);
    if (!target.ok) {
      out.push(
        error(`copy-target-${target.rule}`, [...at, "to"], target.message, WORKSPACE_PATH_HINTS[target.rule]),
      );
    }
  });
  out.push(...globIssues(codon.checkpointedFiles, "checkpointedFiles", [...path, "checkpointedFiles"]));
  out.push(...globIssues(codon.archiveOnSuccess, "archiveOnSuccess", [...path, "archiveOnSuccess"]));
  codon.outputFiles?.forEach((group, g) => {
    out.push(...globIssues(group.copy, "outputFiles copy", [...path, "outputFiles", g, "copy"]));
  });
  return out;
}

/** A loop's own archiveOnSuccess globs. */
export function checkLoopPaths(view: HankView): ValidationIssue[] {
  return view.items.flatMap((item) =>
    item.kind === "loop" && item.loop !== undefined
      ? globIssues(item.loop.archiveOnSuccess, "archiveOnSuccess", [...item.path, "archiveOnSuccess"])
      : [],
  );
}

function globIssues(globs: readonly string[] | undefined, field: string, path: JsonPath): ValidationIssue[] {
  return (globs ?? []).flatMap((glob, k) => {
    const checked = checkWorkspaceGlob(glob);
    if (checked.ok) return [];
    return [
      error(
        `glob-${checked.rule}`,
        [...path, k],
        `${field} ${checked.message}`,
        WORKSPACE_PATH_HINTS[checked.rule],
      ),
    ];
  });
}

/** Disk checks report problems as values; an unexpected throw still becomes a finding, not a crash. */
function safely(check: () => ReturnType<typeof checkCopySource>): ReturnType<typeof checkCopySource> {
  try {
    return check();
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return {
      ok: false,
      rule: "unreadable",
      message: `source path cannot be checked: ${reason}`,
      phrase: reason,
    };
  }
}
