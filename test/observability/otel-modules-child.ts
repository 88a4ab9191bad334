import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loop } from "../../src/workflows/index.ts";

/**
 * Runs a one-step scripted `loop()` with the environment it is given (plus PATH), then prints how many
 * modules of `@opentelemetry/*` the process loaded (they are CommonJS: the require cache holds them).
 */
const cwd = mkdtempSync(join(tmpdir(), "hw-otel-modules-"));
const env: Record<string, string | undefined> = {
  PATH: process.env.PATH,
  ...JSON.parse(process.argv[2] ?? "{}"),
};
try {
  await loop({ steps: [{ name: "a", model: "scripted" }], input: "@say hi", maxIterations: 1, cwd, env });
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) =>
  path.includes("@opentelemetry"),
);
process.stdout.write(`${loaded.length}\n`);
