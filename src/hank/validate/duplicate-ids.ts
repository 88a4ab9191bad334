import { error, formatJsonPath, type JsonPath, type ValidationIssue, warning } from "../issues.ts";
import type { HankView } from "./hank-view.ts";

/**
 * Ids are unique across the whole hank: top-level codons, loops and loop children share one
 * namespace, because runtime ids, checkpoints and budget shares name them. Ids are read as written,
 * so a codon that failed its schema still takes part. Duplicate names only warn.
 */
export function checkDuplicateIds(view: HankView): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Map<string, JsonPath>();
  const claim = (id: string | undefined, path: JsonPath, report: (first: JsonPath) => ValidationIssue) => {
    if (id === undefined) return;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, path);
    else out.push(report(first));
  };
  for (const item of view.items) {
    if (item.kind === "codon") {
      claim(item.rawId, [...item.path, "id"], (first) =>
        duplicateCodon(item.rawId ?? "", item.path, first, ""),
      );
    } else if (item.kind === "loop") {
      const loopId = item.rawId;
      claim(loopId, [...item.path, "id"], (first) => duplicateLoop(loopId ?? "", item.path, first));
      const local = new Set<string>();
      for (const slot of item.codons) {
        const id = slot.rawId;
        const within = id !== undefined && local.has(id) ? ` within loop "${loopId ?? "?"}"` : "";
        claim(id, [...slot.path, "id"], (first) => duplicateCodon(id ?? "", slot.path, first, within));
        if (id !== undefined) local.add(id);
      }
    }
  }
  return [...out, ...duplicateNames(view)];
}

const HINT = "Give each codon and loop its own id; ids name checkpoints, runtime ids and budget shares.";

function duplicateCodon(id: string, path: JsonPath, first: JsonPath, within: string): ValidationIssue {
  const code = within === "" ? "duplicate-codon-id" : "duplicate-codon-id-in-loop";
  const where = formatJsonPath(first.slice(0, -1));
  return error(code, [...path, "id"], `Duplicate codon ID "${id}"${within} (first used at ${where})`, HINT);
}

function duplicateLoop(id: string, path: JsonPath, first: JsonPath): ValidationIssue {
  const where = formatJsonPath(first.slice(0, -1));
  return error(
    "duplicate-loop-id",
    [...path, "id"],
    `Duplicate loop ID "${id}" (first used at ${where})`,
    HINT,
  );
}

function duplicateNames(view: HankView): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Map<string, JsonPath>();
  const slots = view.items.flatMap((item) =>
    item.kind === "codon" ? [item] : item.kind === "loop" ? item.codons : [],
  );
  for (const slot of slots) {
    const name = slot.codon?.name;
    if (name === undefined) continue;
    const first = seen.get(name);
    if (first === undefined) {
      seen.set(name, slot.path);
      continue;
    }
    out.push(
      warning(
        "duplicate-codon-name",
        [...slot.path, "name"],
        `Duplicate codon name "${name}" (also used at ${formatJsonPath(first)})`,
        "Give each codon a distinct name so logs and the UI tell them apart.",
      ),
    );
  }
  return out;
}
