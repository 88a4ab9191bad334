#!/usr/bin/env node
// Import-layer and cycle check for src/. The folder tree is the architecture (DESIGN.md section 2):
// inner layers never import outer shells, the engine sees only the contracts of its adapters, and no
// module graph cycle is allowed. Exits 1 with one line per violation.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const SRC = resolve(import.meta.dirname, "..", "src");

/** The bottom layer: shared vocabulary (events) and small pieces (util); it imports nothing of ours. */
const BOTTOM = ["events", "util"];
const CORE = [...BOTTOM, "hank", "plan", "journal", "harness", "checkpoint", "workspace", "engine"];

/**
 * Which top-level folders each layer may import from (itself is always allowed). Dependencies point
 * inward: the runner composes the core once; the faces call the runner; nothing imports `cli`.
 */
const ALLOWED = {
  events: [],
  util: [],
  hank: [...BOTTOM],
  plan: [...BOTTOM, "hank"],
  journal: [...BOTTOM, "hank", "plan"],
  harness: [...BOTTOM, "hank", "plan"],
  checkpoint: [...BOTTOM, "hank"],
  workspace: [...BOTTOM, "hank", "plan", "checkpoint"],
  bundle: [...BOTTOM, "hank"],
  engine: CORE,
  sentinels: [...CORE],
  observability: [...BOTTOM],
  runner: [...CORE, "sentinels", "bundle", "observability"],
  testing: [...CORE, "sentinels", "runner", "loops", "observability"],
  workflows: [...CORE, "sentinels", "runner", "observability"],
  loops: [...CORE, "sentinels", "runner", "workflows"],
  server: [...CORE, "sentinels", "runner"],
  daemon: [...CORE, "sentinels", "runner", "workflows", "loops", "server", "observability"],
  web: [...BOTTOM, "hank", "plan", "journal", "server"],
  tui: [...BOTTOM, "hank", "plan", "journal", "server"],
  cli: [
    ...CORE,
    "bundle",
    "sentinels",
    "runner",
    "workflows",
    "loops",
    "server",
    "daemon",
    "tui",
    "web",
    "testing",
  ],
  "": [...CORE, "sentinels", "runner", "workflows", "loops", "server", "daemon", "observability"],
  // The package's subpath entries (hankweave/engine, ...): named re-exports of the layers below.
  api: [...CORE, "sentinels", "runner", "server"],
};

/**
 * The faces reach an execution through the runner (its one door) and the vocabulary, never through the
 * engine, the git checkpoint store or the lock: those are composed once, in the runner.
 */
const FACES = ["cli", "server", "tui", "web", "daemon", "workflows", "loops"];
const RUNNER_ONLY = ["engine", `checkpoint${sep}git`, `workspace${sep}lock`];

/** Adapter folders: the engine may import a layer's top-level files (its contracts), never these subfolders. */
const CONTRACT_ONLY_FOR_ENGINE = ["harness", "checkpoint", "workspace"];

function listTs(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listTs(full));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

function importsOf(file) {
  const text = readFileSync(file, "utf8");
  const specs = [];
  const re =
    /(?:^|[\s;])(?:import|export)\s[^"'`]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const typeOnly = /^\s*(?:import|export)\s+type\s/.test(m[0].trimStart());
    if (spec?.startsWith(".")) specs.push({ spec, typeOnly });
  }
  return specs;
}

function layerOf(file) {
  const rel = relative(SRC, file).split(sep);
  return rel.length === 1 ? "" : rel[0];
}

function isTestFile(file) {
  return /\.test\.tsx?$/.test(file);
}

/**
 * `--type-cycles=<layer>[,<layer>...]` also reports cycles inside the named layers that only type-only
 * imports close. They cost nothing at run time, but two files that name each other's types are one
 * concept split in two; the fix is to move the shared contract into a file of its own.
 */
const TYPE_CYCLE_LAYERS = process.argv
  .filter((arg) => arg.startsWith("--type-cycles="))
  .flatMap((arg) => arg.slice("--type-cycles=".length).split(","))
  .filter((layer) => layer !== "");

const files = listTs(SRC);
const graph = new Map();
/** Every import edge, type-only included, kept only for the layers named by `--type-cycles`. */
const typeGraph = new Map();
const problems = [];
for (const file of files) {
  const from = layerOf(file);
  const edges = [];
  const allEdges = [];
  for (const { spec, typeOnly } of importsOf(file)) {
    const target = resolve(dirname(file), spec);
    const to = layerOf(target);
    const relTarget = relative(SRC, target);
    if (!typeOnly) edges.push(target);
    if (TYPE_CYCLE_LAYERS.includes(from) && to === from) allEdges.push(target);
    if (isTestFile(file) || to === from) continue;
    const allowed = ALLOWED[from] ?? [];
    if (!allowed.includes(to)) {
      problems.push(
        `${relative(SRC, file)}: layer '${from || "root"}' may not import '${relTarget}' (layer '${to}')`,
      );
      continue;
    }
    const internal = RUNNER_ONLY.find((dir) => relTarget === dir || relTarget.startsWith(`${dir}${sep}`));
    if (FACES.includes(from) && internal !== undefined) {
      problems.push(
        `${relative(SRC, file)}: a face may not import '${relTarget}' ('${internal}' is composed by the runner: import it from runner/)`,
      );
      continue;
    }
    if (from === "engine" && CONTRACT_ONLY_FOR_ENGINE.includes(to) && relTarget.split(sep).length > 2) {
      problems.push(
        `${relative(SRC, file)}: the engine may import only the contracts of '${to}', not '${relTarget}'`,
      );
    }
  }
  graph.set(file, edges);
  if (TYPE_CYCLE_LAYERS.includes(from)) typeGraph.set(file, allEdges);
}

/** Depth-first search with colouring; reports each cycle it closes, prefixed by `label`. */
function reportCycles(edgesOf, label) {
  const state = new Map();
  const stack = [];
  function visit(node) {
    state.set(node, "open");
    stack.push(node);
    for (const next of edgesOf.get(node) ?? []) {
      const key = edgesOf.has(next) ? next : next.replace(/\.js$/, ".ts");
      if (!edgesOf.has(key)) continue;
      if (state.get(key) === "open") {
        const cycle = stack.slice(stack.indexOf(key)).concat(key);
        problems.push(`${label}: ${cycle.map((f) => relative(SRC, f)).join(" -> ")}`);
      } else if (!state.has(key)) visit(key);
    }
    stack.pop();
    state.set(node, "done");
  }
  for (const file of edgesOf.keys()) if (!state.has(file)) visit(file);
}

// Runtime (non type-only) imports may never form a cycle; type-only ones only when asked.
reportCycles(graph, "import cycle");
if (TYPE_CYCLE_LAYERS.length > 0) reportCycles(typeGraph, "import cycle (type-only included)");

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`check-layers: ${problems.length} problem(s)`);
  process.exit(1);
}
const typeNote =
  TYPE_CYCLE_LAYERS.length > 0 ? ` (type-only cycles too in ${TYPE_CYCLE_LAYERS.join(", ")})` : "";
console.log(`check-layers: ${files.length} files, layers and cycles OK${typeNote}`);
