// Prints the path one codon takes from argv to its journal lines: the source files (and their
// folders) of every function on the stack when the codon's events are appended, async frames
// included. Run: `node --import tsx scripts/codon-path.ts [hank-dir]` (default: examples/hello,
// scripted agent, headless, in a temporary copy). The count is what ARCHITECTURE.md reports.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { JournalWriter } from "../src/journal/journal-writer.ts";

const CODON_EVENTS = new Set(["codon.started", "assistant.action", "token.usage", "codon.completed"]);
const srcRoot = resolve(import.meta.dirname, "../src");

function framesOf(stack: string): string[] {
  const files: string[] = [];
  for (const match of stack.matchAll(/\(?(?:file:\/\/)?(\/[^():]+\.tsx?):\d+:\d+\)?/g)) {
    const file = match[1];
    if (file?.startsWith(srcRoot) === true && !file.includes("/journal/journal-writer.ts")) files.push(file);
  }
  return files;
}

/** Files with a function on the stack (async frames included) when a codon's line is appended. */
const onStack = new Set<string>([join(srcRoot, "journal/journal-writer.ts")]);
/** Files with a function that ran while the first codon ran, helpers included. */
const ran = new Set<string>();

/**
 * The helpers a codon calls are not all on the stack when a line is appended (prompts were built,
 * the end classified): V8's precise coverage counts the functions that ran between the first
 * codon's first event and its `codon.completed`.
 */
const inspector = new Session();
inspector.connect();
inspector.post("Profiler.enable");
inspector.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
type Coverage = { result: { url: string; functions: { ranges: { count: number }[] }[] }[] };
let window: "before" | "open" | "closed" = "before";
function takeCoverage(onTaken: (coverage: Coverage) => void): void {
  inspector.post("Profiler.takePreciseCoverage", (error, coverage) => {
    if (error === null) onTaken(coverage as Coverage);
  });
}
function noteCodonEvent(type: string): void {
  if (window === "before") {
    takeCoverage(() => undefined);
    window = "open";
  } else if (window === "open" && type === "codon.completed") {
    window = "closed";
    takeCoverage((coverage) => {
      for (const script of coverage.result) {
        if (!script.url.startsWith("file://")) continue;
        const file = fileURLToPath(script.url);
        const called = script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0);
        if (called && file.startsWith(srcRoot)) ran.add(file);
      }
    });
  }
}
function noteAppend(type: string): void {
  if (type.startsWith("codon.") || CODON_EVENTS.has(type)) noteCodonEvent(type);
  if (!CODON_EVENTS.has(type)) return;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder);
  for (const file of framesOf(holder.stack ?? "")) onStack.add(file);
}
const { append, appendAll } = JournalWriter.prototype;
JournalWriter.prototype.append = function (this: JournalWriter, draft: Parameters<typeof append>[0]) {
  noteAppend(draft.type);
  return append.call(this, draft);
} as typeof append;
JournalWriter.prototype.appendAll = function (this: JournalWriter, drafts) {
  for (const draft of drafts) noteAppend(draft.type);
  return appendAll.call(this, drafts);
};

Error.stackTraceLimit = 200;
const source = resolve(process.argv[2] ?? join(srcRoot, "../examples/hello"));
const work = mkdtempSync(join(tmpdir(), "codon-path-"));
cpSync(source, join(work, "hank"), { recursive: true });
process.argv = [
  process.argv[0] ?? "node",
  "hankweave",
  join(work, "hank"),
  "--headless",
  "-e",
  join(work, "execution"),
];
process.env.NO_COLOR = "1";
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (() => true) as typeof process.stdout.write;
process.on("exit", () => {
  rmSync(work, { recursive: true, force: true });
  process.stdout.write = write;
  report();
});
await import("../src/cli/main.ts");

function report(): void {
  describe("on the stack when the codon's lines are appended", onStack);
  describe("with a function that ran while the codon ran (helpers, hooks, faces)", ran);
}

function describe(title: string, set: ReadonlySet<string>): void {
  const files = [...set].map((file) => relative(srcRoot, file)).sort();
  const folders = new Set(files.map((file) => file.split("/")[0]));
  console.log(`\n${title}:\n  ${files.join("\n  ")}`);
  console.log(`${files.length} files in ${folders.size} folders (${[...folders].sort().join(", ")})`);
}
