import type { CodonResultText, TokenUsage } from "../../journal/index.ts";

/**
 * The most characters (UTF-16 code units) of an attempt's final text that the engine keeps: in the
 * journal's `codon.completed`, in the run state rebuilt from it, and in `CodonResult`. One bound for all
 * three, so that anything deciding on the text (a stop rule) sees the same text live and after a
 * restart. Every assistant message is journaled in full as `assistant.action` besides.
 */
export const RESULT_TEXT_LIMIT = 64 * 1024;

/** What an attempt spent: token counts summed over its sessions (extensions included), and dollars. */
export interface CodonUsage extends TokenUsage {
  /** The attempt's authoritative cost (what `codon.completed` records as `cost`). */
  readonly costUsd: number;
}

/**
 * What one attempt of a codon produced, for whatever decides what comes next (the run driver, stop
 * rules). Present on every attempt that reached the agent, successful or not.
 */
export interface CodonResult {
  /** The agent's final text (its result message, else its last text message), at most `RESULT_TEXT_LIMIT`. */
  readonly text: string;
  /** `text` is the first part of a longer text. */
  readonly truncated: boolean;
  /** The full text's length in UTF-16 code units. */
  readonly chars: number;
  /** Workspace paths the agent reported changing; null when a tool with unknown effects (a shell) ran. */
  readonly filesChanged: readonly string[] | null;
  readonly usage: CodonUsage;
}

/** The facts an attempt's sessions gathered, before bounding. */
export interface ResultFacts {
  /** The final text; undefined when the agent said nothing. */
  readonly text: string | undefined;
  readonly tokens: TokenUsage;
  readonly costUsd: number;
  readonly changedPaths: readonly string[] | null;
}

export function codonResultOf(facts: ResultFacts): CodonResult {
  const full = facts.text ?? "";
  const text = boundedText(full, RESULT_TEXT_LIMIT);
  return {
    text,
    truncated: text.length < full.length,
    chars: full.length,
    filesChanged: facts.changedPaths,
    usage: { ...facts.tokens, costUsd: facts.costUsd },
  };
}

/** The journal's form of a result (`codon.completed`'s `result`). */
export function resultTextOf(result: CodonResult): CodonResultText {
  return { text: result.text, truncated: result.truncated, chars: result.chars };
}

/** The first `limit` code units of `text`, one fewer when the cut would split a surrogate pair. */
export function boundedText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, splitsPair ? limit - 1 : limit);
}

export { addTokens, NO_TOKENS } from "../../events/token-usage.ts";
