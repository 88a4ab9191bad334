import { parseRuntimeId } from "../../util/runtime-id.ts";
import type { JsonPath, ValidationIssue } from "../issues.ts";
import { error } from "../issues.ts";
import type { HankFile, TerminateOn } from "../schema/index.ts";

interface ConfigCodon {
  readonly id: string;
  readonly path: JsonPath;
}

function configCodons(hank: HankFile): ConfigCodon[] {
  return hank.hank.flatMap((item, index) =>
    item.type === "loop"
      ? item.codons.map((codon, position) => ({
          id: codon.id,
          path: ["hank", index, "codons", position, "id"],
        }))
      : [{ id: item.id, path: ["hank", index, "id"] }],
  );
}

function iterationReached(terminateOn: TerminateOn, iteration: number): boolean {
  return terminateOn.type === "contextExceeded" || iteration < terminateOn.limit;
}

/**
 * Config ids that a loop's expansion can produce as a runtime id: a codon `x#2` collides with loop codon
 * `x` once that loop reaches iteration 2 (any iteration for a `contextExceeded` loop). Plain duplicate
 * config ids are the validator's own rule; this covers only what expansion adds, as load-time errors.
 */
export function runtimeIdCollisions(hank: HankFile): ValidationIssue[] {
  const loopCodons = new Map<string, TerminateOn>();
  for (const item of hank.hank) {
    if (item.type === "loop") for (const codon of item.codons) loopCodons.set(codon.id, item.terminateOn);
  }
  const issues: ValidationIssue[] = [];
  for (const { id, path } of configCodons(hank)) {
    const { configId, iteration } = parseRuntimeId(id);
    const terminateOn = loopCodons.get(configId);
    if (iteration === undefined || terminateOn === undefined || !iterationReached(terminateOn, iteration))
      continue;
    issues.push(
      error(
        "duplicate-runtime-id",
        path,
        `Duplicate codon IDs after loop expansion: ${id}`,
        `Rename codon "${id}": loop codon "${configId}" gets the runtime id "${id}" in iteration ${iteration}.`,
      ),
    );
  }
  return issues;
}
