#!/usr/bin/env node
// Import-layer and cycle check for src/. The folder tree is the architecture (DESIGN.md section 2):
// inner layers never import outer shells, the engine sees only the contracts of its adapters, and no
// module graph cycle is allowed. Exits 1 with one line per violation.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const SRC = resolve(import.meta.dirname, "..", "src");

/** Which top-level folders each layer may import from (itself is always allowed). */
const ALLOWED = {
  spec: [],
  plan: ["spec"],
  journal: ["spec", "plan"],
  harness: ["spec", "plan"],
  checkpoint: ["spec"],
  workspace: ["spec", "plan", "checkpoint"],
  engine: ["spec", "plan", "journal", "harness", "checkpoint", "workspace"],
  testing: ["spec", "plan", "journal", "harness", "checkpoint", "workspace", "engine"],
  workflows: ["spec", "plan", "journal", "harness", "checkpoint", "workspace", "engine"],
  server: ["spec", "plan", "journal", "harness", "checkpoint", "workspace", "engine"],
  web: ["spec", "plan", "journal", "server"],
  tui: ["spec", "plan", "journal", "server"],
  daemon: ["spec", "plan", "journal", "harness", "checkpoint", "workspace", "engine", "workflows"],
  cli: [
    "spec",
    "plan",
    "journal",
    "harness",
    "checkpoint",
    "workspace",
    "engine",
    "server",
    "tui",
    "web",
    "workflows",
    "daemon",
    "testing",
  ],
  "": [
    "spec",
    "plan",
    "journal",
    "harness",
    "checkpoint",
    "workspace",
    "engine",
    "workflows",
    "server",
    "daemon",
  ],
};

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

const files = listTs(SRC);
const graph = new Map();
const problems = [];
for (const file of files) {
  const from = layerOf(file);
  const edges = [];
  for (const { spec, typeOnly } of importsOf(file)) {
    const target = resolve(dirname(file), spec);
    const to = layerOf(target);
    const relTarget = relative(SRC, target);
    if (!typeOnly) edges.push(target);
    if (isTestFile(file) || to === from) continue;
    const allowed = ALLOWED[from] ?? [];
    if (!allowed.includes(to)) {
      problems.push(
        `${relative(SRC, file)}: layer '${from || "root"}' may not import '${relTarget}' (layer '${to}')`,
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
}

// Cycle detection over runtime (non type-only) imports, depth-first with colouring.
const state = new Map();
const stack = [];
function visit(node) {
  state.set(node, "open");
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    const key = [...graph.keys()].find((k) => k === next || k === next.replace(/\.js$/, ".ts")) ?? next;
    if (!graph.has(key)) continue;
    if (state.get(key) === "open") {
      const cycle = stack.slice(stack.indexOf(key)).concat(key);
      problems.push(`import cycle: ${cycle.map((f) => relative(SRC, f)).join(" -> ")}`);
    } else if (!state.has(key)) visit(key);
  }
  stack.pop();
  state.set(node, "done");
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`check-layers: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`check-layers: ${files.length} files, layers and cycles OK`);
