import type { HarnessKind } from "../hank/models/index.ts";
import { BUILTIN_HARNESSES } from "./builtin-harnesses.ts";
import type { HarnessDescriptor, PromptProblem } from "./descriptor.ts";
import { descriptorOfKind, kindsOf } from "./find-descriptor.ts";

/**
 * Whether a harness can load here, asked of its descriptor (module resolution only: validation must
 * stay light and never load a provider SDK). Undefined when it can; otherwise what to install.
 */
export function harnessProblem(
  kind: HarnessKind,
  descriptors: readonly HarnessDescriptor[] = BUILTIN_HARNESSES,
): string | undefined {
  const descriptor = descriptorOfKind(descriptors, kind);
  if (descriptor === undefined)
    return `No harness '${kind}' is registered (registered: ${kindsOf(descriptors)}).`;
  return descriptor.availability();
}

/**
 * What the harness of `kind` would refuse in `prompt`, checked at validation (the scripted agent
 * parses its script); empty when the harness checks nothing or finds nothing.
 */
export function harnessPromptProblems(
  kind: HarnessKind,
  prompt: string,
  descriptors: readonly HarnessDescriptor[] = BUILTIN_HARNESSES,
): readonly PromptProblem[] {
  return descriptorOfKind(descriptors, kind)?.checkPrompt?.(prompt) ?? [];
}
