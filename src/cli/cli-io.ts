import type { RuntimeInfo } from "./render/header.ts";

// The CLI's view of its process, in a file of its own: the composition root (run-cli.ts) and every
// command it loads take these types, so keeping them here lets the commands depend on the contract
// without importing the module that imports them.

/** A place to print to, with what the renderers need to know about it. */
export interface CliOutput {
  write(text: string): void;
  readonly isTTY: boolean;
  /** Terminal width, when the output is a terminal. */
  readonly columns: number | undefined;
}

/** Everything the CLI takes from its process, passed in so that it can run inside a test. */
export interface CliIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly runtime: RuntimeInfo;
  /** Cancels a running hank (the binary aborts it on SIGINT/SIGTERM). */
  readonly signal?: AbortSignal;
  /** Where `-` (data from stdin) reads; default: the process's standard input. */
  readonly stdin?: AsyncIterable<Buffer | string>;
  /**
   * Called when the command's start is over: `--validate` once its report is written, a run when its
   * first codon starts (at most once per process; not every command calls it). The built bin keeps
   * the code compiled up to that point for the next start (boot/cached-script.ts).
   */
  readonly startupDone?: () => void;
}
