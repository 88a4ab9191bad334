import { readFileSync } from "node:fs";

/**
 * The package version, read from package.json two levels above this file: `src/cli/` in development
 * and `dist/cli/` once built both sit there.
 */
export function readPackageVersion(
  packageJson: URL = new URL("../../package.json", import.meta.url),
): string {
  const parsed: unknown = JSON.parse(readFileSync(packageJson, "utf8"));
  if (
    typeof parsed === "object" &&
    parsed !== null &&
    "version" in parsed &&
    typeof parsed.version === "string"
  ) {
    return parsed.version;
  }
  throw new Error(`package.json at ${packageJson.href} has no version`);
}
