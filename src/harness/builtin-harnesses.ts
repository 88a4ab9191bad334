import { claudeDescriptor } from "./claude/descriptor.ts";
import { commandDescriptor } from "./command/descriptor.ts";
import type { HarnessDescriptor } from "./descriptor.ts";
import { piDescriptor } from "./pi/descriptor.ts";
import { scriptedDescriptor } from "./scripted/descriptor.ts";

/**
 * The harnesses of this build. Adding one is a folder with its `descriptor.ts` and one line here (and
 * its kind in the model resolver, which decides `ResolvedModel.harness`). The order does not matter:
 * a model is routed by id prefix, then provider, then to the catalog-wide fallback (find-descriptor.ts).
 */
export const BUILTIN_HARNESSES: readonly HarnessDescriptor[] = [
  scriptedDescriptor,
  commandDescriptor,
  claudeDescriptor,
  piDescriptor,
];
