import type { HarnessKind } from "../hank/models/index.ts";
import { BUILTIN_HARNESSES } from "./builtin-harnesses.ts";
import type { HarnessContext, HarnessDescriptor, HarnessFactory } from "./descriptor.ts";
import { descriptorForModel, kindsOf } from "./find-descriptor.ts";
import type { Harness, HarnessRegistry, SessionModel } from "./harness.ts";

/**
 * How to build the harness of each kind. A registry calls a factory when a codon first needs that
 * harness, so an unused SDK is never loaded. Tests and embedders pass their own (`{ scripted: () =>
 * harness }`); a run passes `harnessFactories(context)`, the descriptors' own.
 */
export type HarnessFactories = Readonly<Partial<Record<HarnessKind, HarnessFactory>>>;

/** Each descriptor's `create`, bound to the run's context. Building nothing yet. */
export function harnessFactories(
  context: HarnessContext,
  descriptors: readonly HarnessDescriptor[] = BUILTIN_HARNESSES,
): HarnessFactories {
  const entries = descriptors.map((d): [HarnessKind, HarnessFactory] => [
    d.kind,
    (model) => d.create(model, context),
  ]);
  return Object.fromEntries(entries);
}

/** The harness with its descriptor's idle default, unless it declares its own. */
function withIdleDefault(harness: Harness, seconds: number): Harness {
  if (harness.defaultIdleTimeoutSeconds !== undefined) return harness;
  return {
    name: harness.name,
    capabilities: harness.capabilities,
    defaultIdleTimeoutSeconds: seconds,
    start: (request) => harness.start(request),
  };
}

function build(factories: HarnessFactories, descriptor: HarnessDescriptor, model: SessionModel): Harness {
  const factory = factories[descriptor.kind];
  if (factory === undefined) {
    throw new Error(
      `The ${descriptor.displayName} harness is not available in this build of hankweave. Run with -m scripted for a dry run.`,
    );
  }
  const made = factory(model);
  if ("missing" in made) throw new Error(made.missing);
  return withIdleDefault(made, descriptor.defaultIdleTimeoutSeconds);
}

/**
 * Chooses a harness for each model by the descriptors (id prefix, then provider; find-descriptor.ts)
 * and builds it with the factory of its kind on first use; later models with the same instance key
 * get the same harness. A model no harness runs, or a kind without a factory, throws with a hint; the
 * engine records that as a permanent failure of the codon. Nothing is built when the registry is made.
 */
export function createHarnessRegistry(
  factories: HarnessFactories,
  descriptors: readonly HarnessDescriptor[] = BUILTIN_HARNESSES,
): HarnessRegistry {
  const built = new Map<string, Harness>();
  return {
    forModel(model: SessionModel): Harness {
      const descriptor = descriptorForModel(descriptors, model);
      if (descriptor === undefined) {
        throw new Error(
          `No harness runs model '${model.requested}' (provider '${model.provider}'); registered harnesses: ${kindsOf(descriptors)}.`,
        );
      }
      const key = `${descriptor.kind}:${descriptor.instanceKey?.(model) ?? ""}`;
      const existing = built.get(key);
      if (existing !== undefined) return existing;
      const harness = build(factories, descriptor, model);
      built.set(key, harness);
      return harness;
    },
  };
}
