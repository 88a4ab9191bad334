import { RIG_ARCHIVE_NAME } from "../outputs/index.ts";

/**
 * Whose archive a move belongs to, which decides its directory under `rigArchive/`:
 * - a codon outside loops: `rigArchive/<codonId>/`;
 * - a codon inside a loop, after each iteration: `rigArchive/<loopId>-<iteration>/<runtimeId>/`
 *   with the runtime id's `#` made `-` (`edit#0` → `edit-0`);
 * - a loop's own `archiveOnSuccess`, once when the loop terminates: `rigArchive/<loopId>-loop/`.
 *   This follows the loops spec ("What a loop leaves behind"); the reference's field table says
 *   `<loopId>-<iteration>/`, which would mix the loop's files into its last iteration's directory.
 */
export type ArchiveTarget =
  | { readonly kind: "codon"; readonly codonId: string }
  | {
      readonly kind: "loop-codon";
      readonly loopId: string;
      /** 0-based. */
      readonly iteration: number;
      /** `edit#0`. */
      readonly runtimeId: string;
    }
  | { readonly kind: "loop"; readonly loopId: string };

/** The target's directory relative to the execution directory, `/`-separated: `rigArchive/...`. */
export function archiveDirOf(target: ArchiveTarget): string {
  switch (target.kind) {
    case "codon":
      return `${RIG_ARCHIVE_NAME}/${archiveName(target.codonId)}`;
    case "loop-codon":
      return `${RIG_ARCHIVE_NAME}/${archiveName(`${target.loopId}-${target.iteration}`)}/${archiveName(target.runtimeId)}`;
    case "loop":
      return `${RIG_ARCHIVE_NAME}/${archiveName(`${target.loopId}-loop`)}`;
  }
}

/**
 * One id as a single directory name: `#` becomes `-` (runtime ids), `/`, `\` and control characters
 * become `_` so an id can never name a path, and `.`/`..` (or nothing) get a leading `_`.
 */
export function archiveName(id: string): string {
  let name = "";
  for (const char of id) {
    const code = char.codePointAt(0) ?? 0;
    if (char === "#") name += "-";
    else if (char === "/" || char === "\\" || code < 0x20 || code === 0x7f) name += "_";
    else name += char;
  }
  return name === "" || name === "." || name === ".." ? `_${name}` : name;
}
