import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { childEnv } from "./child-env.ts";
import type { SuiteContext } from "./suite.ts";

let built: string | undefined;

/**
 * The package's `bin` (`dist/cli/hankweave.cjs`, the bundle), after one `npm run build` per bench run, so
 * the suites that spawn the CLI measure the current sources. A build whose type check fails still
 * leaves the bundle of the last good build; that is reported and measured.
 */
export function builtBin(context: SuiteContext): string {
  if (built !== undefined) return built;
  context.log("  npm run build");
  const result = spawnSync("npm", ["run", "build"], {
    cwd: context.repoRoot,
    env: childEnv(context.env),
    encoding: "utf8",
  });
  const bin = join(context.repoRoot, "dist", "cli", "hankweave.cjs");
  if (result.status !== 0) {
    if (!existsSync(bin)) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
    context.log(`  warning: npm run build exited ${result.status}; measuring the existing ${bin}`);
  }
  built = bin;
  return bin;
}
