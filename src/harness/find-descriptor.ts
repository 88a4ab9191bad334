import type { HarnessDescriptor } from "./descriptor.ts";
import type { SessionModel } from "./harness.ts";

function hasPrefix(descriptor: HarnessDescriptor, requested: string): boolean {
  const prefix = descriptor.idPrefix?.toLowerCase();
  return prefix !== undefined && (requested === prefix || requested.startsWith(`${prefix}/`));
}

/**
 * The descriptor that runs a model, by the rules the model resolver applies: a harness prefix in the
 * requested id wins (so `pi/anthropic/<model>` runs on pi), then a descriptor naming the provider, then
 * the one that takes every other provider. Undefined when none does.
 */
export function descriptorForModel(
  descriptors: readonly HarnessDescriptor[],
  model: Pick<SessionModel, "requested" | "provider">,
): HarnessDescriptor | undefined {
  const requested = model.requested.toLowerCase();
  return (
    descriptors.find((d) => hasPrefix(d, requested)) ??
    descriptors.find((d) => d.providers !== "*" && d.providers.includes(model.provider)) ??
    descriptors.find((d) => d.providers === "*")
  );
}

/** The descriptor of a kind, as named in `ResolvedModel.harness`. */
export function descriptorOfKind(
  descriptors: readonly HarnessDescriptor[],
  kind: string,
): HarnessDescriptor | undefined {
  return descriptors.find((d) => d.kind === kind);
}

/** The registered kinds, for messages. */
export function kindsOf(descriptors: readonly HarnessDescriptor[]): string {
  return descriptors.length === 0 ? "none" : descriptors.map((d) => d.kind).join(", ");
}
