import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SentinelConfig, SentinelEntry } from "../hank/schema/index.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";

/**
 * Where and how a sentinel writes what it produces:
 * - the log (every output, appended): text outputs as `joinString + text + "\n"` (`format: "text"`),
 *   or one JSON value per line (`format: "jsonl"`, the default for structured output);
 * - the last-value file, when configured, replaced atomically by each output (pretty JSON for
 *   structured output, the text otherwise).
 * A bare file name goes to `<outputsDir>/<sentinel id>/`; a path with `/` is relative to agentRoot. The
 * default log is `<outputsDir>/<id>/<id>-<codon>-<time>.{md|jsonl}`, so each codon run gets its own;
 * a configured name is shared, so outputs of loop iterations accumulate in it.
 */
export interface SentinelOutputs {
  readonly logPath: string;
  readonly lastValuePath: string | undefined;
  readonly format: "text" | "jsonl";
  write(content: string | object): void;
}

export interface OutputPlace {
  readonly agentRoot: string;
  /** `.hankweave/sentinels/outputs` of the execution. */
  readonly outputsDir: string;
  readonly codonId: string;
  readonly now: number;
}

const DEFAULT_JOIN = "\n---\n";

export function sentinelOutputs(
  config: SentinelConfig,
  settings: SentinelEntry["settings"],
  place: OutputPlace,
): SentinelOutputs {
  const structured = config.structuredOutput !== undefined;
  const format = config.output?.format ?? (structured ? "jsonl" : "text");
  const ownDir = join(place.outputsDir, config.id);
  const resolve = (name: string): string =>
    name.includes("/") ? join(place.agentRoot, name) : join(ownDir, name);
  const named = settings?.outputPaths?.logFile ?? config.output?.file;
  const fileCodon = place.codonId.replaceAll("#", "-");
  const logPath =
    named === undefined
      ? join(ownDir, `${config.id}-${fileCodon}-${place.now}.${format === "jsonl" ? "jsonl" : "md"}`)
      : resolve(named);
  const last = settings?.outputPaths?.lastValueFile;
  const lastValuePath = last === undefined ? undefined : resolve(last);
  const joinString = unescapeJoin(config.joinString ?? DEFAULT_JOIN);
  return {
    logPath,
    lastValuePath,
    format,
    write(content) {
      const json = typeof content !== "string" || format === "jsonl";
      appendFileSync(logPath, json ? `${JSON.stringify(content)}\n` : `${joinString}${content}\n`);
      if (lastValuePath !== undefined) {
        const text = typeof content === "string" ? content : JSON.stringify(content, null, 2);
        writeFileAtomic(lastValuePath, text, process.pid);
      }
    },
  };
}

/**
 * Creates the directories the outputs go to, unless `made` says they were made already (then a later
 * write that finds one gone fails as a write failure); throws with the file system's reason.
 */
export function prepareOutputs(outputs: SentinelOutputs, made: Set<string> = new Set()): void {
  for (const path of [outputs.logPath, outputs.lastValuePath]) {
    if (path === undefined || made.has(dirname(path))) continue;
    mkdirSync(dirname(path), { recursive: true });
    made.add(dirname(path));
  }
}

/** `joinString` escapes, as the reference runtime reads them: `\n`, `\t`, `\r` and `\\`. */
function unescapeJoin(text: string): string {
  return text.replace(/\\([ntr\\])/g, (_, c: string) =>
    c === "n" ? "\n" : c === "t" ? "\t" : c === "r" ? "\r" : "\\",
  );
}
