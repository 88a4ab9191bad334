import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { CODON_FIELDS, LOOP_FIELDS, ROOT_FIELDS } from "../src/hank/schema/index.ts";
import { type ValidationReport, validateHank } from "../src/hank/validate/index.ts";

/**
 * Random mutations of valid hanks must never make the validator throw, and every report must be
 * well formed: `ok` agrees with the issues, and every issue has a code, a message, a hint and a
 * JSON path. A seeded PRNG keeps every run identical; a failure names the seed and iteration.
 */

const FIXTURES = fileURLToPath(new URL("./fixtures", import.meta.url));
const SOURCES = ["minimal-loop", "validator-rich"].map((name) => {
  const dir = path.join(FIXTURES, name);
  return { dir, hank: JSON.parse(fs.readFileSync(path.join(dir, "hank.json"), "utf8")) as unknown };
});

/** mulberry32: small, fast, good enough to drive mutations. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[int(items.length)] as T;
  };
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

function deepArray(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function deepObject(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) value = { type: "loop", codons: [value] };
  return value;
}

const GARBAGE: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  " ",
  "NaN",
  "Infinity",
  "-0",
  "1e999",
  "\u0000",
  "../../etc/passwd",
  "/abs/path",
  "C:\\win",
  "rm -rf /",
  "loop",
  "codon",
  "fresh",
  "continue-previous",
  "contextExceeded",
  "iterationLimit",
  "proportional",
  "haiku",
  "sonet",
  "scripted",
  "pi/acme/x",
  "constructor",
  "__proto__",
  [],
  {},
  [[[]]],
  { type: "loop" },
  { type: "codon" },
  { type: "loop", id: "x", name: "x", terminateOn: { type: "contextExceeded" }, codons: [{}] },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  deepArray(60),
  deepObject(30),
];

const KEYS: readonly string[] = [
  ...CODON_FIELDS,
  ...LOOP_FIELDS,
  ...ROOT_FIELDS,
  "trackedFiles",
  "maxCost",
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "shares",
  "allocation",
  "maxDollars",
  "limit",
  "copy",
  "from",
  "to",
  "run",
  "x",
];

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

/** Every object and array in the tree (bounded), so a mutation can land anywhere. */
function containers(root: unknown): Container[] {
  const out: Container[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0 && out.length < 400) {
    const node = stack.pop();
    if (!isContainer(node)) continue;
    out.push(node);
    stack.push(...(Array.isArray(node) ? node : Object.values(node)));
  }
  return out;
}

function keysOf(node: Container): Array<string | number> {
  return Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
}

function setAt(node: Container, key: string | number, value: unknown): void {
  if (Array.isArray(node)) node[Number(key)] = value;
  else
    Object.defineProperty(node, String(key), { value, enumerable: true, writable: true, configurable: true });
}

const MUTATIONS: ReadonlyArray<(rng: Rng, node: Container, root: unknown) => void> = [
  function deleteEntry(rng, node) {
    const keys = keysOf(node);
    if (keys.length === 0) return;
    const key = rng.pick(keys);
    if (Array.isArray(node)) node.splice(Number(key), 1);
    else delete node[String(key)];
  },
  function renameKey(rng, node) {
    if (Array.isArray(node)) return;
    const keys = Object.keys(node);
    if (keys.length === 0) return;
    const key = rng.pick(keys);
    const value = node[key];
    delete node[key];
    setAt(node, rng.pick(KEYS), value);
  },
  function replaceWithGarbage(rng, node) {
    const keys = keysOf(node);
    if (keys.length > 0) setAt(node, rng.pick(keys), structuredClone(rng.pick(GARBAGE)));
  },
  function insertKey(rng, node) {
    setAt(node, Array.isArray(node) ? node.length : rng.pick(KEYS), structuredClone(rng.pick(GARBAGE)));
  },
  function duplicateItem(rng, node) {
    if (!Array.isArray(node) || node.length === 0) return;
    node.splice(rng.int(node.length + 1), 0, structuredClone(rng.pick(node)));
  },
  function nestLoop(rng, _node, root) {
    const loops = containers(root).filter(
      (c) => !Array.isArray(c) && c.type === "loop" && Array.isArray(c.codons),
    );
    if (loops.length === 0) return;
    const target = rng.pick(loops) as { codons: unknown[] };
    target.codons.push(structuredClone(rng.pick(loops)));
  },
  function changeType(rng, node) {
    const keys = keysOf(node);
    if (keys.length === 0) return;
    const key = rng.pick(keys);
    const value = Array.isArray(node) ? node[Number(key)] : node[String(key)];
    const swapped =
      typeof value === "string"
        ? [value]
        : typeof value === "number"
          ? String(value)
          : Array.isArray(value)
            ? { ...value }
            : value === null
              ? 0
              : typeof value === "object"
                ? Object.values(value)
                : "x";
    setAt(node, key, swapped);
  },
  function hugeOrOddNumber(rng, node) {
    const keys = keysOf(node);
    if (keys.length === 0) return;
    setAt(node, rng.pick(keys), rng.pick([1e308, -1e308, Number.NaN, -0, 2 ** 53 + 1, 0.1 + 0.2, -1, 1e-12]));
  },
  function reuseId(rng, _node, root) {
    const withIds = containers(root).filter((c) => !Array.isArray(c) && typeof c.id === "string") as Array<{
      id: string;
    }>;
    if (withIds.length < 2) return;
    rng.pick(withIds).id = rng.pick(withIds).id;
  },
  function flipPolicy(rng, _node, root) {
    const codons = containers(root).filter((c) => !Array.isArray(c) && "continuationMode" in c) as Array<
      Record<string, unknown>
    >;
    if (codons.length === 0) return;
    const codon = rng.pick(codons);
    codon.continuationMode = rng.pick(["fresh", "continue-previous", "continue"]);
    codon.onFailure = rng.pick(["abort", "retry", "ignore", undefined]);
    codon.model = rng.pick(["haiku", "sonnet", "scripted/a", "scripted/b", "pi/acme/x", "sonet"]);
    if (rng.next() < 0.3) codon.exhaustWithPrompt = "more";
  },
];

function checkReport(report: ValidationReport, label: string): void {
  assert.equal(report.ok, !report.issues.some((issue) => issue.severity === "error"), `${label}: ok`);
  for (const issue of report.issues) {
    const where = `${label}: ${JSON.stringify(issue)}`;
    assert.ok(issue.severity === "error" || issue.severity === "warning", where);
    assert.ok(typeof issue.code === "string" && issue.code !== "", where);
    assert.notEqual(issue.code, "validator-internal-error", where);
    assert.ok(typeof issue.message === "string" && issue.message.trim() !== "", where);
    assert.ok(typeof issue.hint === "string" && issue.hint.trim() !== "", where);
    assert.ok(Array.isArray(issue.path), where);
    for (const part of issue.path) assert.ok(typeof part === "string" || typeof part === "number", where);
  }
  if (report.hank !== undefined)
    assert.ok(Array.isArray(report.hank.hank) && report.hank.hank.length > 0, label);
}

describe("validator fuzz", () => {
  it("survives 3000 random mutations of valid hanks with well-formed reports", () => {
    const seed = 20240611;
    const rng = prng(seed);
    let errors = 0;
    for (let iteration = 0; iteration < 3000; iteration++) {
      const source = rng.pick(SOURCES);
      const hank = structuredClone(source.hank);
      const steps = 1 + rng.int(4);
      for (let step = 0; step < steps; step++) {
        const node = rng.pick(containers(hank));
        rng.pick(MUTATIONS)(rng, node, hank);
      }
      const modelOverride = rng.next() < 0.1 ? rng.pick(["scripted", "sonet", "haiku"]) : undefined;
      const report = validateHank(hank, {
        hankPath: path.join(source.dir, "hank.json"),
        hankDir: source.dir,
        env: { REVIEW_TOKEN: "t", HANKWEAVE_API_KEY: "secret-value-1234" },
        findTool: () => true,
        ...(modelOverride === undefined ? {} : { modelOverride }),
      });
      checkReport(report, `seed ${seed}, iteration ${iteration}`);
      if (!report.ok) errors++;
    }
    // The mutations must actually break hanks most of the time, or the fuzz proves little.
    assert.ok(errors > 1500, `only ${errors} of 3000 mutated hanks had errors`);
  });
});
