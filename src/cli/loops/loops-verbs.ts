import { rmSync } from "node:fs";
import { formatJsonPath, type ValidationIssue } from "../../hank/issues.ts";
import {
  admitRun,
  type DriveEnd,
  driveRun,
  EXIT_CODES,
  EXIT_PARKED,
  EXIT_USAGE,
  endLayersOf,
  isOwnerDead,
  isTerminalState,
  LIMIT_KEYS,
  type LoopCommandType,
  type LoopRunRecord,
  loadDefinition,
  loopJsonSchema,
  parkHint,
  refusalNow,
  removePinned,
} from "../../loops/index.ts";
import type { LoopsContext } from "./loops-context.ts";
import { printJson, runEndJson } from "./loops-json.ts";
import { missingRun, showVerb } from "./read-verbs.ts";

/** The verbs of `hankweave loops`; each returns the process exit code. */

export function printIssues(context: LoopsContext, issues: readonly ValidationIssue[]): void {
  for (const issue of issues) {
    context.warn(
      `${issue.severity === "error" ? "error" : "warning"}: ${issue.file ?? ""} ${formatJsonPath(issue.path)}: ${issue.message}\n  fix: ${issue.hint}`,
    );
  }
}

export function exitCodeOf(end: DriveEnd): number {
  if (end.kind === "terminal") return EXIT_CODES[end.run.state as keyof typeof EXIT_CODES] ?? EXIT_USAGE;
  return end.kind === "waiting" ? EXIT_PARKED : EXIT_USAGE;
}

export interface RunFlags {
  readonly idempotencyKey?: string;
  readonly admitAnyway?: string;
  readonly set: readonly string[];
  readonly detach: boolean;
  readonly exitOnPark: boolean;
}

/** `loops run <def>` (start and follow) and `loops start <def>` (start, print the id). */
export async function startVerb(context: LoopsContext, file: string, flags: RunFlags): Promise<number> {
  const loaded = loadDefinition(file, context.io.cwd);
  if (!loaded.ok) {
    printIssues(context, loaded.issues);
    return EXIT_USAGE;
  }
  printIssues(context, loaded.warnings);
  const overrides = parseOverrides(flags.set);
  if (typeof overrides === "string") {
    context.warn(overrides);
    return EXIT_USAGE;
  }
  const deps = context.driverDeps(true);
  const admitted = await admitRun({
    store: context.store,
    definition: loaded.definition,
    home: context.home,
    clock: deps.clock,
    newId: () => `${loaded.definition.id}-${deps.newId()}`,
    overrides,
    limitConfig: context.limitConfig,
    ...(flags.idempotencyKey !== undefined && { idempotencyKey: flags.idempotencyKey }),
    ...(flags.admitAnyway !== undefined && { admitAnyway: flags.admitAnyway }),
  });
  if (admitted.kind === "refused") {
    context.warn(admitted.message);
    return EXIT_USAGE;
  }
  const run = admitted.run;
  if (admitted.kind === "duplicate")
    context.warn(`duplicate: key ${run.key} already started run ${run.id} (${run.state})`);
  else {
    for (const message of admitted.clamped) context.warn(`clamped: ${message}`);
    for (const notice of admitted.notices) context.warn(`warning (${notice.code}): ${notice.message}`);
  }
  if (flags.detach && context.json) {
    const { clamped, notices } = admitted.kind === "duplicate" ? { clamped: [], notices: [] } : admitted;
    printJson(context, {
      run: run.id,
      state: run.state,
      duplicate: admitted.kind === "duplicate",
      clamped,
      notices,
    });
  } else if (!context.json) context.print(run.id);
  if (flags.detach) return 0;
  return follow(context, run.id, flags.exitOnPark);
}

/** Drives the run in this process until it ends (or parks, with `exitOnPark`). */
export async function follow(context: LoopsContext, runId: string, exitOnPark: boolean): Promise<number> {
  for (;;) {
    const end = await driveRun(runId, context.driverDeps(true), { follow: !exitOnPark });
    if (end.kind === "busy") {
      context.warn(`run ${runId} is driven by ${end.owner}; following it from the store.`);
      return waitVerb(context, runId);
    }
    if (end.kind === "terminal") {
      const layers = endLayersOf(end.run, (await context.store.generations(runId)).at(-1));
      const shown = layers === null ? "" : `; layers: driver ${layers.driver}, goal ${layers.goal}`;
      context.warn(`${end.run.id}: ${end.run.state} (${end.run.cause})${shown}`);
    }
    if (end.kind === "waiting")
      context.warn(
        `${end.run.id}: ${end.run.state} (${end.run.parkReason ?? "waiting"}); ${parkHint(end.run)}`,
      );
    if (end.kind === "lost") continue;
    if (context.json) printJson(context, runEndJson(end.run, exitCodeOf(end)));
    return exitCodeOf(end);
  }
}

function parseOverrides(set: readonly string[]): Record<string, number> | string {
  const out: Record<string, number> = {};
  for (const pair of set) {
    const match = /^([a-z_]+)=(\d+)$/.exec(pair);
    if (match === null || !(LIMIT_KEYS as readonly string[]).includes(match[1] ?? "")) {
      return `--set takes <limit>=<whole number>, with a limit among ${LIMIT_KEYS.join(", ")}; got "${pair}".`;
    }
    out[match[1] ?? ""] = Number(match[2]);
  }
  return out;
}

export function schemaVerb(context: LoopsContext): number {
  context.print(JSON.stringify(loopJsonSchema(), null, 2));
  return 0;
}

/** `show --wait`: polls the store until the run ends; the exit code says how. */
export async function waitVerb(context: LoopsContext, runId: string): Promise<number> {
  for (;;) {
    const run = await context.store.getRun(runId);
    if (run === undefined) return missingRun(context, runId);
    if (isTerminalState(run.state)) {
      if (context.json) await showVerb(context, runId);
      return exitCodeOf({ kind: "terminal", run });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (context.io.signal?.aborted === true) return EXIT_USAGE;
  }
}

export async function noteVerb(
  context: LoopsContext,
  runId: string,
  text: string,
  by: string,
): Promise<number> {
  const run = await context.store.getRun(runId);
  if (run === undefined) return missingRun(context, runId);
  if (isTerminalState(run.state)) {
    context.warn(
      `note refused, nothing recorded: run ${runId} ended ${run.state} (${run.cause ?? ""}), so no generation would read it. Start a new run with \`hankweave loops start <definition>\`.`,
    );
    return EXIT_USAGE;
  }
  const id = await context.store.addMessage({
    runId,
    kind: "operator_note",
    author: by,
    text,
    createdAt: new Date().toISOString(),
  });
  if (context.json) printJson(context, { run: runId, note: id });
  else
    context.print(
      `note #${id} added: the run reads it before it decides, and hands it to its next generation`,
    );
  return 0;
}

/**
 * pause, resume, stop, approve, reject: the command goes to the store, and the run's driver applies it
 * at its next boundary. With no driver alive (no daemon, no `loops run`), this process drives the run
 * itself: a resume or an approval continues it here in the foreground, as `loops run` does.
 */
export async function commandVerb(
  context: LoopsContext,
  runId: string,
  type: LoopCommandType,
  extra: { by: string; add?: number; comment?: string; noDrive: boolean },
): Promise<number> {
  const run = await context.store.getRun(runId);
  if (run === undefined) return missingRun(context, runId);
  const { noDrive, ...command } = extra;
  const refused = refusalNow(run, { type, ...command });
  if (refused !== undefined) {
    context.warn(`${type} refused, nothing recorded: ${refused}`);
    return EXIT_USAGE;
  }
  const id = await context.store.addCommand(runId, { type, ...command }, new Date().toISOString());
  const drives = !noDrive && !hasLiveDriver(run);
  if (context.json && !drives) printJson(context, { run: runId, command: type, commandId: id });
  if (!context.json) context.print(`${type} recorded (command #${id})`);
  if (!drives) return 0;
  const keepGoing = type === "resume" || type === "approve";
  return follow(context, runId, !keepGoing);
}

function hasLiveDriver(run: LoopRunRecord): boolean {
  return run.leaseOwner !== null && (run.leaseExpiresAt ?? 0) > Date.now() && !isOwnerDead(run.leaseOwner);
}

/** Deletes ended runs older than `days` (done and no-op; bad endings too with `all`), with their directories. */
export async function gcVerb(context: LoopsContext, days: number, all: boolean): Promise<number> {
  const cutoff = Date.now() - days * 86_400_000;
  let removed = 0;
  for (const run of await context.store.listRuns({
    states: all ? ["done", "no-op", "blocked", "failed", "exhausted", "stalled"] : ["done", "no-op"],
  })) {
    if (run.endedAt === null || Date.parse(run.endedAt) > cutoff) continue;
    if (await context.store.deleteRun(run.id)) {
      rmSync(run.dir, { recursive: true, force: true });
      if (run.contract.pinnedDir !== undefined) removePinned(run.contract.pinnedDir);
      removed += 1;
    }
  }
  const before = new Date(cutoff).toISOString();
  if (context.json) printJson(context, { removed, endedBefore: before, all });
  else
    context.print(
      `removed ${removed} run(s) ended before ${before}${all ? "" : " (failed runs' sediment is kept; --all removes it)"}`,
    );
  return 0;
}
