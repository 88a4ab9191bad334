import { palette, type RenderOptions } from "./style.ts";

export interface PassthroughVariable {
  readonly name: string;
  /** The value as it may be shown: secrets arrive already masked. */
  readonly shown: string;
}

/**
 * The variables that `HANKWEAVE_<NAME>` passes into the agents' environment. Empty string when
 * there are none.
 */
export function renderEnvPassthrough(
  variables: readonly PassthroughVariable[],
  options: RenderOptions,
): string {
  if (variables.length === 0) return "";
  const paint = palette(options.color);
  const lines = [
    paint.bold("Environment for the agents:"),
    paint.dim("  From the system (HANKWEAVE_ prefixed):"),
    ...variables.map((variable) => `  - ${variable.name}: ${variable.shown}`),
  ];
  return lines.join("\n");
}
