import { spawn } from "node:child_process";

/**
 * Runs a gate, hook, source or escalation command: an argv without a shell, in its own process group
 * (so that a timeout, a stop or the next driver can end it with everything it started), with a bounded
 * capture of its output. Never throws: a program that cannot start is a value.
 */
export interface ArgvRequest {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin?: string;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Called with the child's process group id once it started (recorded so a next driver can end it). */
  readonly onStarted?: (pgid: number) => void;
}

export type ArgvResult =
  | { readonly kind: "exited"; readonly code: number; readonly stdout: string; readonly stderr: string }
  | {
      readonly kind: "killed";
      readonly signal: string;
      readonly timedOut: boolean;
      readonly stdout: string;
      readonly stderr: string;
    }
  | { readonly kind: "not-started"; readonly message: string };

const MAX_CAPTURE = 256 * 1024;
const KILL_GRACE_MS = 2000;

export function runArgv(request: ArgvRequest): Promise<ArgvResult> {
  const [program, ...args] = request.argv;
  if (program === undefined) return Promise.resolve({ kind: "not-started", message: "empty command" });
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let settled = false;
    const capture = (chunk: Buffer, into: "out" | "err") => {
      const text = chunk.toString("utf8");
      if (into === "out" && stdout.length < MAX_CAPTURE) stdout += text;
      if (into === "err" && stderr.length < MAX_CAPTURE) stderr += text;
    };
    child.stdout.on("data", (chunk: Buffer) => capture(chunk, "out"));
    child.stderr.on("data", (chunk: Buffer) => capture(chunk, "err"));
    child.stdin.on("error", () => undefined);
    child.stdin.end(request.stdin ?? "");
    const kill = () => killGroup(child.pid);
    const timer =
      request.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            kill();
          }, request.timeoutMs);
    const onAbort = () => kill();
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (child.pid !== undefined) request.onStarted?.(child.pid);
    const finish = (result: ArgvResult) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    child.on("error", (error: NodeJS.ErrnoException) =>
      finish({ kind: "not-started", message: `${program}: ${error.code ?? error.message}` }),
    );
    child.on("close", (code, signal) => {
      if (signal !== null || timedOut)
        finish({ kind: "killed", signal: signal ?? "SIGTERM", timedOut, stdout, stderr });
      else finish({ kind: "exited", code: code ?? 1, stdout, stderr });
    });
  });
}

/** SIGTERM to the whole group, SIGKILL after a grace period if it is still there. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }, KILL_GRACE_MS);
  timer.unref();
}

/** The last non-empty line of a text, trimmed (a gate's summary). */
export function lastLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return (lines.at(-1) ?? "").slice(0, 500);
}
