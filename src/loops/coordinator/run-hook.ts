import type { LoopEventDataInput } from "../../events/loop-events.ts";
import type { HookName } from "../../events/loop-words.ts";
import type { Clock } from "../../util/clock.ts";
import { lastLine, runArgv } from "./run-argv.ts";
import type { Wrap } from "./sandbox-wrap.ts";

/** A hook that ran, as the Loops event log records it (`hook.ran`, `at` its end). */
export interface HookRan {
  readonly data: LoopEventDataInput<"hook.ran">;
  readonly at: string;
}

/** A hook's answer: exit 0 allows, 1-125 denies, anything else (a crash, a timeout, no program) is an error. */
export type HookAnswer =
  | { readonly kind: "allow" }
  | { readonly kind: "deny"; readonly message: string }
  | { readonly kind: "error"; readonly message: string };

export interface HookRequest {
  readonly hook: HookName;
  /** The generation it runs for (for `generation_pre`, the number the generation would get). */
  readonly generation: number;
  readonly argv: readonly string[] | null;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** The run as JSON, on the hook's stdin. */
  readonly input: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  readonly onStarted?: (pgid: number) => void;
  /** The run's sandbox (its cwd read-only); absent: no sandbox. */
  readonly wrap?: Wrap;
  readonly clock: Clock;
  /** Told of a hook that ran, with its times, before its answer is acted on (the log's `hook.ran`). */
  readonly recorded: (ran: HookRan) => Promise<void>;
}

const HOOK_TIMEOUT_MS = 60_000;

/** Runs a hook and records that it ran; an absent hook allows, and records nothing. */
export async function runHook(request: HookRequest): Promise<HookAnswer> {
  if (request.argv === null) return { kind: "allow" };
  const startedAt = new Date(request.clock.now()).toISOString();
  const answer = await answerOf(request, request.argv);
  await request.recorded({
    data: { hook: request.hook, generation: request.generation, startedAt, answer: answer.kind },
    at: new Date(request.clock.now()).toISOString(),
  });
  return answer;
}

async function answerOf(request: HookRequest, argv: readonly string[]): Promise<HookAnswer> {
  const result = await runArgv({
    argv: request.wrap?.(argv, request.cwd, false) ?? argv,
    cwd: request.cwd,
    env: request.env,
    stdin: JSON.stringify(request.input),
    timeoutMs: HOOK_TIMEOUT_MS,
    signal: request.signal,
    ...(request.onStarted !== undefined && { onStarted: request.onStarted }),
  });
  if (result.kind === "not-started") return { kind: "error", message: result.message };
  if (result.kind === "killed") return { kind: "error", message: `killed by ${result.signal}` };
  const said = lastLine(result.stdout) || lastLine(result.stderr);
  if (result.code === 0) return { kind: "allow" };
  if (result.code >= 1 && result.code <= 125) return { kind: "deny", message: said || `exit ${result.code}` };
  return { kind: "error", message: `exit ${result.code}${said ? `: ${said}` : ""}` };
}
