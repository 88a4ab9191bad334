/**
 * One benchmark case in a fresh process: `node --import tsx bench/worker.ts <case> <json args> [repeat]`.
 * Runs the case `repeat` times (default 1), one after another, and prints the results as one JSON array
 * on the last stdout line; the orchestrator (`bench/run.ts`) reads it.
 */
import { agentFloor } from "./cases/agent-floor.ts";
import { checkpointSize } from "./cases/checkpoint-size.ts";
import { engineCase } from "./cases/engine-case.ts";
import { journalBuild, journalRead } from "./cases/journal-cases.ts";
import { tracedRun } from "./cases/traced-run.ts";

type Case = (args: never) => Promise<unknown>;

import { eventFloor } from "./cases/event-floor.ts";

const CASES: Readonly<Record<string, Case>> = {
  "event-floor": eventFloor,
  "agent-floor": agentFloor,
  engine: engineCase,
  "checkpoint-size": checkpointSize,
  "journal-build": journalBuild,
  "journal-read": journalRead,
  "traced-run": tracedRun,
};

const [name, json, repeatArg] = process.argv.slice(2);
const run = name === undefined ? undefined : CASES[name];
if (run === undefined) {
  process.stderr.write(`unknown case "${name ?? ""}"; known: ${Object.keys(CASES).join(", ")}\n`);
  process.exit(2);
}
const args = JSON.parse(json ?? "{}") as never;
const results: unknown[] = [];
for (let i = 0; i < Number(repeatArg ?? "1"); i++) results.push(await run(args));
process.stdout.write(`${JSON.stringify(results)}\n`);
