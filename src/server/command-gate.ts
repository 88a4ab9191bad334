import { type ErrorData, errorData } from "./frames.ts";
import {
  type ClientMode,
  type CommandType,
  isQuery,
  isShutdown,
  MESSAGES,
  REFUSAL_CODES,
} from "./protocol.ts";

/** What the server knows when a command arrives. */
export interface GateFacts {
  readonly mode: ClientMode;
  readonly shuttingDown: boolean;
  readonly rollingBack: boolean;
  /** The codon running now, named in refusals. */
  readonly codonRunning?: string;
}

/** Whether a command goes through, is dropped without a word, or is refused to its sender. */
export type GateVerdict =
  | { readonly kind: "pass" }
  | { readonly kind: "drop" }
  | { readonly kind: "refuse"; readonly reply: ErrorData };

/**
 * The gates, in the reference's order: while shutting down, state-changing commands are dropped;
 * during a rollback they are refused (`ROLLBACK_IN_PROGRESS`); a read-only client may only query
 * (`INSUFFICIENT_PERMISSIONS`). Queries pass every gate; shutdown passes the first two, not the third.
 */
export function gateCommand(type: CommandType, facts: GateFacts): GateVerdict {
  if (isQuery(type)) return { kind: "pass" };
  const shutdown = isShutdown(type);
  if (!shutdown && facts.shuttingDown) return { kind: "drop" };
  if (!shutdown && facts.rollingBack) {
    return refuse(MESSAGES.rollingBack, REFUSAL_CODES.rollback, type, facts.codonRunning);
  }
  if (facts.mode === "readonly") {
    return refuse(MESSAGES.readOnly, REFUSAL_CODES.readonly, type, facts.codonRunning);
  }
  return { kind: "pass" };
}

function refuse(message: string, code: string, type: CommandType, codon: string | undefined): GateVerdict {
  return {
    kind: "refuse",
    reply: errorData(message, {
      context: MESSAGES.attempted(type),
      ...(codon !== undefined && { codon }),
      severity: "operation",
      code,
    }),
  };
}
