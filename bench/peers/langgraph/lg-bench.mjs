// One LangGraph.js run per process, for hankweave's benchmark 6 (bench/README.md).
// Usage: node lg-bench.mjs <none|memory|sqlite> <steps> [async|sync|exit] [db file]
// Prints one JSON line: timings, peak RSS and, for SQLite, what was persisted.
import { statSync } from "node:fs";

const [mode = "sqlite", stepsArg = "1000", durability = "async", dbPath = "lg-bench.db"] =
  process.argv.slice(2);
const steps = Number(stepsArg);

const importStart = process.hrtime.bigint();
const { Annotation, END, START, StateGraph, MemorySaver } = await import("@langchain/langgraph");
const sqlite = mode === "sqlite" ? await import("@langchain/langgraph-checkpoint-sqlite") : null;
const importEnd = process.hrtime.bigint();

// The whole state is one last-value channel; the node does no work but count.
const State = Annotation.Root({ counter: Annotation() });
const entries = [];
const increment = (state) => {
  entries.push(process.hrtime.bigint());
  return { counter: state.counter + 1 };
};
const saver =
  mode === "sqlite"
    ? sqlite.SqliteSaver.fromConnString(dbPath)
    : mode === "memory"
      ? new MemorySaver()
      : undefined;
const graph = new StateGraph(State)
  .addNode("inc", increment)
  .addEdge(START, "inc")
  .addConditionalEdges("inc", (state) => (state.counter < steps ? "inc" : END), ["inc", END])
  .compile(saver === undefined ? {} : { checkpointer: saver });
const compileEnd = process.hrtime.bigint();

const result = await graph.invoke(
  { counter: 0 },
  { recursionLimit: steps + 10, durability, configurable: { thread_id: "bench" } },
);
const invokeEnd = process.hrtime.bigint();
if (result.counter !== steps) throw new Error(`counter ${result.counter}, expected ${steps}`);

const ms = (from, to) => Number(to - from) / 1e6;
const gaps = entries
  .slice(1)
  .map((at, i) => ms(entries[i], at))
  .sort((a, b) => a - b);
const pick = (p) => gaps[Math.min(gaps.length - 1, Math.max(0, Math.ceil(p * gaps.length) - 1))] ?? 0;
const cpu = process.cpuUsage();
const out = {
  mode,
  durability,
  steps,
  importMs: ms(importStart, importEnd),
  compileMs: ms(importEnd, compileEnd),
  invokeMs: ms(compileEnd, invokeEnd),
  perStepMs: ms(compileEnd, invokeEnd) / steps,
  gapP50Ms: pick(0.5),
  gapP99Ms: pick(0.99),
  cpuMs: (cpu.user + cpu.system) / 1000,
  maxRssMb: process.resourceUsage().maxRSS / 1024,
  // CLOCK_MONOTONIC, comparable with the parent's reading taken just before the spawn.
  firstStepAt: entries[0]?.toString() ?? null,
  persisted: mode === "sqlite" ? persisted(saver.db, dbPath) : null,
};
process.stdout.write(`${JSON.stringify(out)}\n`);

/** Rows and bytes SqliteSaver wrote: one checkpoint row per step (the full state) and its pending writes. */
function persisted(db, path) {
  const one = (sql) => db.prepare(sql).get();
  const checkpoints = one(
    "SELECT count(*) AS rows, sum(length(checkpoint)) AS blob, sum(length(metadata)) AS meta FROM checkpoints",
  );
  const writes = one("SELECT count(*) AS rows, sum(length(value)) AS blob FROM writes");
  const size = (file) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return {
    checkpointRows: checkpoints.rows,
    checkpointBytes: (checkpoints.blob ?? 0) + (checkpoints.meta ?? 0),
    writeRows: writes.rows,
    writeBytes: writes.blob ?? 0,
    journalMode: db.pragma("journal_mode", { simple: true }),
    synchronous: db.pragma("synchronous", { simple: true }),
    dbBytes: size(path),
    walBytes: size(`${path}-wal`),
  };
}
