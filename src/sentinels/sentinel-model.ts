/**
 * The contract between a sentinel and the model it calls: one request, one reply or one failure, as
 * values. Implementations: `pi-sentinel-model.ts` (pi-ai's multi-provider client) and
 * `scripted-sentinel-model.ts` (the offline scripted model). A model never throws for a provider's
 * failure; a throw is a bug.
 */

export interface ChatMessage {
  readonly role: "user" | "assistant";
  readonly content: string;
}

export interface SentinelModelRequest {
  /** The rendered system prompt plus any structured-output instruction. */
  readonly system?: string;
  /** The conversation so far (conversational sentinels), then the rendered user prompt last. */
  readonly messages: readonly ChatMessage[];
  readonly temperature: number;
  readonly maxOutputTokens: number;
  /** Retries of a failed call inside the client, before the call counts as failed. */
  readonly maxRetries: number;
  /** 1-based number of this sentinel's call within its codon (the scripted model's `attempts=`). */
  readonly callNumber: number;
  readonly signal: AbortSignal;
}

export interface SentinelUsage {
  readonly input: number;
  readonly output: number;
}

export type SentinelModelResult =
  | {
      readonly ok: true;
      readonly text: string;
      readonly usage: SentinelUsage;
      /** Dollars; 0 when the model has no known price. */
      readonly costUsd: number;
    }
  | {
      readonly ok: false;
      readonly message: string;
      /** Whether the same call can succeed later (a rate limit, a server error, a timeout). */
      readonly retriable: boolean;
    };

export interface SentinelModel {
  /** The model id as the sentinel names it, for `sentinel.loaded`. */
  readonly id: string;
  call(request: SentinelModelRequest): Promise<SentinelModelResult>;
}
