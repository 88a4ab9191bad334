/**
 * Types of the fake provider servers (reference: harnesses-and-dependencies §1.1). A script decides
 * each model response from the conversation in the request; the server renders that decision in the
 * wire format of its provider (Anthropic Messages or OpenAI Chat Completions).
 */

/** Token figures of one reply; omitted fields are estimated from the request and reply sizes. */
export interface FakeUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
}

/**
 * One tool call. `tool` is matched against the request's `tools` list (exact name first, then
 * case-insensitively), so `"write"` becomes `Write` for Claude Code and stays `write` for pi.
 */
export interface FakeToolCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** Number of argument deltas the JSON is split into (default 3). */
  readonly argumentChunks?: number;
}

/** A complete model response. */
export type FakeAnswer =
  | {
      readonly type: "text";
      readonly text: string;
      /** Number of text deltas (default 2). */
      readonly textChunks?: number;
      readonly usage?: FakeUsage;
    }
  | {
      readonly type: "tool";
      readonly calls: readonly FakeToolCall[];
      /** Text before the tool calls, as its own content block. */
      readonly text?: string;
      readonly usage?: FakeUsage;
    }
  | {
      /**
       * Output cut at max tokens in the middle of a tool call: the arguments stop after `keepChars`
       * characters of their JSON (default: half), stop_reason `max_tokens` / finish_reason `length`.
       */
      readonly type: "max-tokens";
      readonly call: FakeToolCall;
      readonly keepChars?: number;
      readonly text?: string;
      readonly usage?: FakeUsage;
    };

/** An HTTP error response in the provider's error format. */
export type FakeHttpFault =
  /** 429 `rate_limit_error` / `rate_limit_exceeded`, with a `retry-after` header when given. */
  | { readonly type: "rate-limit"; readonly retryAfterSeconds?: number; readonly message?: string }
  /** 500 `api_error` / `server_error`. */
  | { readonly type: "server-error"; readonly message?: string }
  /** Anthropic: 529 `overloaded_error`; OpenAI: 503 `server_error`. */
  | { readonly type: "overloaded"; readonly message?: string }
  /** 400: Anthropic `invalid_request_error` "prompt is too long…"; OpenAI `context_length_exceeded`. */
  | { readonly type: "prompt-too-long"; readonly message?: string }
  /** Any other error: status, the provider's error type string, message, extra headers. */
  | {
      readonly type: "http-error";
      readonly status: number;
      readonly errorType: string;
      readonly message: string;
      readonly headers?: Readonly<Record<string, string>>;
    };

/** A fault in the transport of a streamed answer (a non-streaming request gets no body at all). */
export type FakeStreamFault =
  /** Sends `afterEvents` SSE events of `answer` (default: a short text), then destroys the socket. */
  | { readonly type: "connection-reset"; readonly afterEvents: number; readonly answer?: FakeAnswer }
  /** Sends headers and `afterEvents` events (default 1), then nothing until the client or server closes. */
  | { readonly type: "stall"; readonly afterEvents?: number; readonly answer?: FakeAnswer };

export type FakeReply = FakeAnswer | FakeHttpFault | FakeStreamFault;

/** A tool the request offers, with the names of its input properties (from its JSON schema). */
export interface FakeTool {
  readonly name: string;
  readonly properties: readonly string[];
}

/** A tool result found in the conversation. */
export interface FakeToolResult {
  readonly toolUseId: string;
  readonly text: string;
  readonly isError: boolean;
}

/**
 * The request as a script sees it, the same for both providers. A "prompt" is a user message that
 * carries text and no tool results; the current turn starts at the last prompt.
 */
export interface FakeRequestView {
  readonly provider: "anthropic" | "openai";
  /** 0-based index among the model requests this server received (count_tokens excluded). */
  readonly requestIndex: number;
  readonly model: string;
  readonly stream: boolean;
  readonly system: string;
  readonly tools: readonly FakeTool[];
  /** Text of the last prompt ("" when there is none). */
  readonly prompt: string;
  /** Texts of all prompts, oldest first. */
  readonly prompts: readonly string[];
  /** Tool results after the last prompt, in order. */
  readonly toolResults: readonly FakeToolResult[];
  /** Number of tool results after the last prompt: 0 on the first request of a turn. */
  readonly step: number;
  /** Tool results in the whole conversation (the reference's step counter). */
  readonly totalToolResults: number;
  readonly messageCount: number;
  /** The parsed request body. */
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * Decides each reply. A function sees the request; a list answers the n-th model request with its
 * n-th entry, and answers requests past its end with the text "fake provider: script exhausted".
 */
export type FakeScript = ((request: FakeRequestView) => FakeReply) | readonly FakeReply[];

/** One request as received, JSON-serializable (one line of `log()`). */
export interface RecordedRequest {
  readonly index: number;
  readonly method: string;
  /** Path with query string, as received. */
  readonly url: string;
  readonly route: "messages" | "count_tokens" | "chat_completions" | "not_found";
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body, or null when the body was empty or not JSON. */
  readonly body: unknown;
  /** The `type` of the reply sent (`text`, `tool`, `rate-limit`, …); absent for count_tokens and 404. */
  readonly reply?: string;
}

export interface FakeServerOptions {
  /** Default 0: an ephemeral port. */
  readonly port?: number;
  /** Epoch milliseconds for `created` fields; default Date.now. */
  readonly now?: () => number;
  /**
   * Milliseconds between two frames of a streamed answer, to stream at a model's pace (at 5 tokens a
   * text chunk, 100 ms is 50 tokens a second). Default 0: a whole answer is written at once.
   */
  readonly frameIntervalMs?: number;
}

export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. Anthropic clients use it as is; OpenAI clients add `/v1`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** The requests as JSON lines, each ending in "\n". */
  log(): string;
  /** Stops listening and destroys open connections, stalled streams included. */
  close(): Promise<void>;
}
