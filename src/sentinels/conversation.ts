import type { SentinelConfig } from "../hank/schema/index.ts";
import type { ChatMessage } from "./sentinel-model.ts";

type TrimmingStrategy = NonNullable<SentinelConfig["conversational"]>["trimmingStrategy"];

/** Rough token estimate of a text (4 characters a token), for trimming when no count is known. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

interface Turn {
  readonly user: string;
  readonly assistant: string;
  readonly tokens: number;
}

/**
 * The history of a conversational sentinel: whole turns (a user prompt and the accepted reply), trimmed
 * before each call so the oldest turns go first. `maxTurns` keeps the last N turns; `maxTokens` keeps
 * the most recent turns that fit the budget (a turn is never split, so the history stays a valid
 * alternation). A failed call adds no turn. The history lives as long as the sentinel (one codon, one
 * loop iteration): a later load starts clean.
 */
export class Conversation {
  #turns: Turn[] = [];

  constructor(private readonly trimming: TrimmingStrategy) {}

  /** The history to send before the next prompt, after trimming. */
  messages(): ChatMessage[] {
    this.trim();
    return this.#turns.flatMap((turn): ChatMessage[] => [
      { role: "user", content: turn.user },
      { role: "assistant", content: turn.assistant },
    ]);
  }

  /** `outputTokens`: the model's count for the reply, when it reported one. */
  add(user: string, assistant: string, outputTokens?: number): void {
    const tokens = estimateTokens(user) + (outputTokens ?? estimateTokens(assistant));
    this.#turns.push({ user, assistant, tokens });
  }

  get turns(): number {
    return this.#turns.length;
  }

  private trim(): void {
    if (this.trimming.type === "maxTurns") {
      const excess = this.#turns.length - this.trimming.maxTurns;
      if (excess > 0) this.#turns.splice(0, excess);
      return;
    }
    let total = this.#turns.reduce((sum, turn) => sum + turn.tokens, 0);
    while (total > this.trimming.maxTokens && this.#turns.length > 0) {
      total -= this.#turns.shift()?.tokens ?? 0;
    }
  }
}
