import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { runExecution } from "../../src/runner/index.ts";
import { writeHank } from "./hank-fixture.ts";
import { createNullCheckpointer } from "./null-checkpointer.ts";

export interface TracedRunArgs {
  readonly codons: number;
  /** `on`: spans exported over OTLP/HTTP (protobuf) to a receiver in another process. */
  readonly tracing: "off" | "on";
  /** `git`: the CLI's own checkpoints (a real codon's cost); `none`: the runtime alone. */
  readonly checkpoints: "none" | "git";
}

export interface TracedRunResult {
  readonly codons: number;
  readonly outcome: string;
  /** From the first codon's start to the run's end event: the per-codon work, start-up excluded. */
  readonly codonsMs: number;
  /** From the run's end event to `runExecution` returning (tracing: the last export). */
  readonly closeMs: number;
  readonly spans: number;
}

/**
 * A real run (`runExecution`: journal, state.json, git checkpoints or none) of N codons that each make one model
 * turn with usage, with tracing off or on. With tracing on, spans go to an OTLP receiver in a child
 * process that answers each export as it arrives and decodes them all after the run (decoding is the
 * backend's work, not the runtime's: see otlp-receiver-child.ts).
 */
export async function tracedRun(args: TracedRunArgs): Promise<TracedRunResult> {
  const root = mkdtempSync(join(tmpdir(), "hankweave-bench-otel-"));
  const receiver = args.tracing === "on" ? await startReceiver() : undefined;
  try {
    const hank = writeHank(join(root, "hank"), {
      shape: { kind: "codons", count: args.codons },
      prompt: "@usage input=10 output=5\n@say ok",
    });
    let first = 0;
    let ended = 0;
    const result = await runExecution({
      hank,
      cwd: root,
      execution: join(root, "exec"),
      env: {
        PATH: process.env.PATH ?? "",
        ...(receiver !== undefined && { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }),
      },
      ...(args.checkpoints === "none" && { checkpointer: () => createNullCheckpointer() }),
      listeners: [
        (event) => {
          if (event.type === "codon.started" && first === 0) first = performance.now();
          if (event.type === "state.transition" && event.data.transitionType.startsWith("RunC"))
            ended = performance.now();
        },
      ],
    });
    const returned = performance.now();
    return {
      codons: args.codons,
      outcome: result.kind === "ran" ? result.outcome : result.kind,
      codonsMs: ended - first,
      closeMs: returned - ended,
      spans: (await receiver?.close()) ?? 0,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The worker runs bundled, from a cache directory, with the repository as its working directory. */
const RECEIVER_CHILD = join(process.cwd(), "bench", "cases", "otlp-receiver-child.ts");

/** Starts bench/cases/otlp-receiver-child.ts; `close` resolves to the number of spans it decoded. */
async function startReceiver(): Promise<{ endpoint: string; close(): Promise<number> }> {
  const child = spawn(process.execPath, ["--import", "tsx", RECEIVER_CHILD], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const endpoint = String((await lines.next()).value);
  return {
    endpoint,
    close: async () => {
      child.stdin.end();
      const count = Number((await lines.next()).value);
      await once(child, "exit");
      return count;
    },
  };
}
