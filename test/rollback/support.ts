import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliIo } from "../../src/cli/cli-io.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import type { DataOf, JournaledEvent, JournaledType } from "../../src/journal/index.ts";

/** A temp workspace for CLI rollback tests: a hank directory and an execution directory. */
export interface CliSandbox {
  readonly dir: string;
  readonly hankDir: string;
  readonly exec: string;
  /** Runs `hankweave <argv>` in-process; returns the exit code and what it printed. */
  cli(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The execution's journal, oldest first. */
  journal(): JournaledEvent[];
  file(path: string): string | null;
  remove(): void;
}

export function sandbox(hank: unknown): CliSandbox {
  const dir = mkdtempSync(join(tmpdir(), "hw-rollback-"));
  const hankDir = join(dir, "hank");
  mkdirSync(hankDir);
  writeFileSync(join(hankDir, "hank.json"), JSON.stringify(hank, null, 2));
  const exec = join(dir, "exec");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(dir, "executions"),
    NO_COLOR: "1",
  };
  return {
    dir,
    hankDir,
    exec,
    async cli(argv) {
      let stdout = "";
      let stderr = "";
      const io: CliIo = {
        cwd: dir,
        env,
        stdout: {
          write: (text) => {
            stdout += text;
          },
          isTTY: false,
          columns: undefined,
        },
        stderr: {
          write: (text) => {
            stderr += text;
          },
          isTTY: false,
          columns: undefined,
        },
        runtime: { version: "0.0.0-test", platform: "linux", arch: "x64", nodeVersion: process.version },
      };
      const code = await runCli(argv, io);
      return { code, stdout, stderr };
    },
    journal() {
      const text = readFileSync(join(exec, ".hankweave", "events", "events.jsonl"), "utf8");
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as JournaledEvent);
    },
    file(path) {
      try {
        return readFileSync(join(exec, "agentRoot", path), "utf8");
      } catch {
        return null;
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A scripted codon of the CLI tests. */
export function codon(
  id: string,
  script: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    name: id.toUpperCase(),
    model: "scripted",
    continuationMode: "fresh",
    promptText: script,
    ...fields,
  };
}

export function hankOf(items: readonly unknown[]): unknown {
  return { meta: { name: "rollback test", version: "1" }, hank: items };
}

/** The payloads of one event type after the `index`-th event. */
export function after<T extends JournaledType>(
  events: readonly JournaledEvent[],
  index: number,
  type: T,
): DataOf<T>[] {
  return events
    .slice(index)
    .filter((event) => event.type === type)
    .map((event) => event.data as DataOf<T>);
}
