import { type EndReason, worstEndReason } from "../end-reason.ts";
import type { HarnessEvent, SessionRequest } from "../harness.ts";
import type { ResultFacts, SessionFacts } from "./decide-outcome.ts";
import { EventMapper } from "./event-mapper.ts";
import { asArray, asRecord, type JsonRecord, numberField, stringField } from "./json-fields.ts";
import { endReasonOfStop } from "./stop-reason.ts";
import { TruncationGuard } from "./truncation-guard.ts";
import { UsageMeter } from "./usage-meter.ts";

const STDERR_TAIL_CHARS = 4000;

/**
 * The state of one running `query()`: reads each SDK message, emits harness events as they happen,
 * and keeps the facts the outcome is decided from (decide-outcome.ts).
 */
export class SessionRun {
  readonly guard = new TruncationGuard();
  readonly #meter = new UsageMeter();
  readonly #mapper: EventMapper;
  #sessionId: string | undefined;
  #established = false;
  #result: ResultFacts | undefined;
  #resultCostUsd: number | undefined;
  #thrown: string | undefined;
  #stderr = "";
  #compacted = false;
  #rateLimitRetryMs: number | undefined;
  #lastStop: string | null = null;
  #worstStream: EndReason = "completed";

  constructor(
    private readonly request: SessionRequest,
    now: () => number,
    private readonly emit: (event: HarnessEvent) => void,
  ) {
    this.#mapper = new EventMapper(request.cwd, now, emit);
  }

  get established(): boolean {
    return this.#established;
  }

  get hasResult(): boolean {
    return this.#result !== undefined;
  }

  /** The SDK's `total_cost_usd` (cumulative over a resumed session's queries). */
  get resultCostUsd(): number | undefined {
    return this.#resultCostUsd;
  }

  onStderr(data: string): void {
    this.#stderr = (this.#stderr + data).slice(-STDERR_TAIL_CHARS);
  }

  onThrown(error: unknown): void {
    this.#thrown = error instanceof Error ? error.message : String(error);
  }

  onMessage(raw: unknown): void {
    const message = asRecord(raw);
    switch (message.type) {
      case "system":
        this.#onSystem(message);
        break;
      case "stream_event":
        this.#onStreamEvent(message);
        break;
      case "assistant":
        this.guard.onAssistantMessage(asRecord(message.message));
        this.#mapper.onAssistant(message);
        break;
      case "user":
        this.#mapper.onUser(message);
        break;
      case "result":
        this.#onResult(message);
        break;
    }
  }

  #onSystem(message: JsonRecord): void {
    const sessionId = stringField(message, "session_id");
    if (message.subtype === "init" && sessionId !== undefined && !this.#established) {
      this.#established = true;
      this.#sessionId = sessionId;
      this.emit({ type: "session.started", sessionId });
    } else if (message.subtype === "compact_boundary") {
      const metadata = asRecord(message.compact_metadata);
      const preTokens = numberField(metadata, "pre_tokens");
      this.emit({ type: "compaction", ...(preTokens !== undefined && { preTokens }) });
      // With autoCompact an automatic compaction is the contextExceeded signal (spec: codons).
      if (this.request.autoCompact && metadata.trigger === "auto") this.#compacted = true;
    } else if (message.subtype === "api_retry" && numberField(message, "error_status") === 429) {
      this.#rateLimitRetryMs = numberField(message, "retry_delay_ms");
    }
  }

  #onStreamEvent(message: JsonRecord): void {
    const lane = stringField(message, "parent_tool_use_id") ?? "main";
    const event = asRecord(message.event);
    this.guard.onStreamEvent(lane, event);
    const usage = this.#meter.onStreamEvent(lane, event);
    if (usage !== undefined) this.emit({ type: "usage", usage });
    if (event.type !== "message_delta") return;
    const stop = stringField(asRecord(event.delta), "stop_reason") ?? null;
    this.#worstStream = worstEndReason(this.#worstStream, endReasonOfStop(stop));
    if (lane === "main") this.#lastStop = stop;
  }

  #onResult(message: JsonRecord): void {
    const errors = asArray(message.errors).filter((e): e is string => typeof e === "string");
    const status = numberField(message, "api_error_status");
    const errorType = stringField(message, "api_error_type");
    const terminalReason = stringField(message, "terminal_reason");
    this.#result = {
      subtype: stringField(message, "subtype") ?? "unknown",
      isError: message.is_error === true,
      text: stringField(message, "result") ?? errors.join("\n"),
      ...(status !== undefined && { apiErrorStatus: status }),
      ...(errorType !== undefined && { apiErrorType: errorType }),
      ...(terminalReason !== undefined && { terminalReason }),
    };
    this.#resultCostUsd = numberField(message, "total_cost_usd");
    this.#sessionId ??= stringField(message, "session_id");
  }

  /** The facts of the finished session; `costUsd` is the session's own cost, or null when unknown. */
  facts(abortReason: string | undefined, costUsd: number | null): SessionFacts {
    const truncated = this.guard.truncation?.toolName;
    return {
      ...(this.#sessionId !== undefined && { sessionId: this.#sessionId }),
      established: this.established,
      ...(this.#result !== undefined && { result: this.#result }),
      ...(this.#thrown !== undefined && { thrown: this.#thrown }),
      stderrTail: this.#stderr,
      ...(abortReason !== undefined && { abortReason }),
      ...(truncated !== undefined && { truncatedTool: truncated }),
      compacted: this.#compacted,
      ...(this.#rateLimitRetryMs !== undefined && { rateLimitRetryMs: this.#rateLimitRetryMs }),
      lastStop: this.#lastStop,
      worstStream: this.#worstStream,
      toolsPending: this.#mapper.toolsPending,
      totals: { ...this.#meter.totals(), costUsd },
    };
  }
}
