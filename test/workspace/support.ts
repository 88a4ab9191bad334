import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DataOf, type JournaledEvent, type JournaledType, readAll } from "../../src/journal/index.ts";
import { type ExecutionLayout, executionLayout } from "../../src/workspace/execution-layout.ts";
import { type CliResult, runCli } from "../fixtures/hankweave-cli.ts";

/**
 * Shared by the workspace end-to-end tests: a temp sandbox per test, hank files written into it, the
 * real CLI run against it, and the execution it made read back.
 */

export interface Sandbox {
  readonly root: string;
  /** Where executions go (`HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR`). */
  readonly executions: string;
  remove(): void;
}

export function sandbox(prefix: string): Sandbox {
  const root = mkdtempSync(join(tmpdir(), `hw-${prefix}-`));
  return {
    root,
    executions: join(root, "executions"),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A codon of the scripted agent; `fields` override or add to the defaults. */
export function codon(id: string, promptText: string, fields: Record<string, unknown> = {}) {
  return { id, name: id.toUpperCase(), model: "scripted", continuationMode: "fresh", promptText, ...fields };
}

/** Writes `<dir>/hank.json` (and any extra files, by relative path) and returns the directory. */
export function writeHank(
  dir: string,
  hank: readonly unknown[],
  extra: { readonly root?: Record<string, unknown>; readonly files?: Record<string, string> } = {},
): string {
  mkdirSync(dir, { recursive: true });
  const body = { meta: { name: "e2e", version: "1" }, ...extra.root, hank };
  writeFileSync(join(dir, "hank.json"), JSON.stringify(body, null, 2));
  for (const [path, text] of Object.entries(extra.files ?? {})) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Runs `hankweave <args>` with executions kept in the sandbox. */
export function hankweave(
  box: Sandbox,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<CliResult> {
  return runCli(args, { env: { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: box.executions, ...env } });
}

/** The layouts of the executions in the sandbox. */
export function executions(box: Sandbox): ExecutionLayout[] {
  if (!existsSync(box.executions)) return [];
  return readdirSync(box.executions).map((name) => executionLayout(join(box.executions, name)));
}

/** The sandbox's only execution; throws when there is none or more than one. */
export function onlyExecution(box: Sandbox): ExecutionLayout {
  const all = executions(box);
  if (all.length !== 1) throw new Error(`expected one execution, found ${all.length}`);
  const [layout] = all;
  if (layout === undefined) throw new Error("unreachable");
  return layout;
}

/** Every journal record of the execution; throws when a record is unreadable. */
export async function journal(layout: ExecutionLayout): Promise<JournaledEvent[]> {
  const read = await readAll(layout.eventsPath, { validate: true });
  if (read.skipped > 0 || read.torn) throw new Error(`journal damaged: ${read.skipped} skipped`);
  return read.events;
}

/** The payloads of one event type, in journal order. */
export function payloads<T extends JournaledType>(events: readonly JournaledEvent[], type: T): DataOf<T>[] {
  return events.flatMap((e) => (e.type === type ? [e.data as DataOf<T>] : []));
}
