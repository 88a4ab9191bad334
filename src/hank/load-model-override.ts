/**
 * The `-m/--model` override: every codon's model, top level and inside loops, is replaced in the raw
 * hank JSON before validation, so the validator checks the model that will actually run.
 */
export function applyModelOverride(raw: unknown, model: string): unknown {
  if (!isRecord(raw)) return raw;
  const copy = structuredClone(raw);
  const items = copy.hank;
  if (!Array.isArray(items)) return copy;
  for (const item of items) {
    if (!isRecord(item)) continue;
    if (item.type === "loop") {
      if (Array.isArray(item.codons))
        for (const codon of item.codons) if (isRecord(codon)) codon.model = model;
    } else item.model = model;
  }
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
