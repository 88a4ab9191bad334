/**
 * Whether an optional SDK package can be found from here, without importing it (resolution only:
 * validation must stay light and never load a provider SDK). Undefined when it resolves; otherwise
 * the install hint.
 */
export function sdkProblem(packageName: string, installCommand: string): string | undefined {
  try {
    import.meta.resolve(packageName);
    return undefined;
  } catch {
    return `${packageName} is not installed. Install it next to hankweave: ${installCommand}`;
  }
}
