import { SENTINEL_STAGE } from "./sentinel-checks.ts";
import { validateHankWith } from "./validate-hank-with.ts";
import type { ValidationContext, ValidationReport } from "./validation-types.ts";

/**
 * Validates a hank (the parsed JSON of hank.json) and collects every issue; never throws. Stages, the
 * model override and what each reports: see `validateHankWith`, run here with every sentinel check.
 */
export function validateHank(raw: unknown, context: ValidationContext): ValidationReport {
  return validateHankWith(raw, context, SENTINEL_STAGE);
}
