import fs from "node:fs";
import path from "node:path";
import { canonicalJson } from "./canonical-json.ts";
import { sha256Hex } from "./lock.ts";

export interface CodonInputs {
  /** Codon id → digest of its definition and of every member it refers to. */
  readonly digests: Record<string, string>;
  /** References that would break once packed (files outside the hank directory). */
  readonly errors: readonly string[];
}

interface CodonAt {
  readonly id: string;
  readonly definition: Record<string, unknown>;
  /** JSON path of the definition in hank.json, e.g. `$.hank[1].codons[0]`. */
  readonly at: string;
}

/**
 * One digest per codon: sha256 of the canonical JSON of `{codon, refs}`, where `refs` maps every
 * member named by a string in the codon (a prompt file, a rig source, a directory of them) to its
 * sha256. Strings that name an existing file outside the hank directory are errors: the bundle
 * would run without them.
 */
export function codonInputs(
  raw: unknown,
  hankDir: string,
  memberDigests: ReadonlyMap<string, string>,
): CodonInputs {
  const digests: Record<string, string> = {};
  const errors: string[] = [];
  for (const codon of codonsOf(raw)) {
    const refs: Record<string, string> = {};
    for (const [value, at] of strings(codon.definition, codon.at)) {
      const outside = collectRefs(value, hankDir, memberDigests, refs);
      if (outside !== undefined) {
        errors.push(
          `codon ${codon.id} (${at}): '${value}' is outside the hank directory (${outside}); move it inside the hank directory and refer to it there.`,
        );
      }
    }
    digests[codon.id] = sha256Hex(canonicalJson({ codon: codon.definition, refs }));
  }
  return { digests, errors };
}

/** Adds the members a string names to `refs`; returns the absolute path when it names a file outside. */
function collectRefs(
  value: string,
  hankDir: string,
  memberDigests: ReadonlyMap<string, string>,
  refs: Record<string, string>,
): string | undefined {
  if (value === "" || value.includes("\n") || value.includes("\0")) return undefined;
  const absolute = path.resolve(hankDir, value);
  const relative = path.relative(hankDir, absolute).split(path.sep).join("/");
  if (relative.startsWith("../") || relative === ".." || path.isAbsolute(relative)) {
    return (value.startsWith(".") || path.isAbsolute(value)) && fs.existsSync(absolute)
      ? absolute
      : undefined;
  }
  for (const [name, digest] of memberDigests) {
    if (relative !== "" && (name === relative || name.startsWith(`${relative}/`))) refs[name] = digest;
  }
  return undefined;
}

function codonsOf(raw: unknown): CodonAt[] {
  const items = isRecord(raw) && Array.isArray(raw.hank) ? raw.hank : [];
  const codons: CodonAt[] = [];
  items.forEach((item: unknown, index: number) => {
    if (!isRecord(item)) return;
    const at = `$.hank[${index}]`;
    if (item.type === "loop" && Array.isArray(item.codons)) {
      item.codons.forEach((inner: unknown, innerIndex: number) => {
        if (isRecord(inner) && typeof inner.id === "string") {
          codons.push({ id: inner.id, definition: inner, at: `${at}.codons[${innerIndex}]` });
        }
      });
    } else if (typeof item.id === "string") {
      codons.push({ id: item.id, definition: item, at });
    }
  });
  return codons;
}

function* strings(value: unknown, at: string): Generator<[string, string]> {
  if (typeof value === "string") yield [value, at];
  else if (Array.isArray(value))
    for (const [index, item] of value.entries()) yield* strings(item, `${at}[${index}]`);
  else if (isRecord(value))
    for (const [key, item] of Object.entries(value)) yield* strings(item, `${at}.${key}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
