import type { MessageKind } from "../../events/loop-words.ts";

export { MESSAGE_KINDS, type MessageKind } from "../../events/loop-words.ts";
/**
 * The inbox: continuation intents are messages, never booleans. Operator notes, gate blockers and
 * approval comments are durable, ordered and attributed. The coordinator rereads the inbox after the
 * gates and before deciding: a run ends `done` only with no unread operator message; unread messages
 * are handed to the next generation and marked read by it, so every continuation names its message.
 */

export interface InboxMessage {
  readonly id: number;
  readonly runId: string;
  readonly kind: MessageKind;
  /** Who wrote it: an operator name, `gate:<id>`, `approval`. */
  readonly author: string;
  readonly text: string;
  readonly createdAt: string;
  /** The generation that read it; null while unread. */
  readonly readByGeneration: number | null;
}

/** Messages that hold a passing run back from `done`: unread notes from an operator. */
export function unreadOperatorMessages(messages: readonly InboxMessage[]): InboxMessage[] {
  return messages.filter((m) => m.readByGeneration === null && m.kind === "operator_note");
}

/** What the next generation is handed: every unread message, oldest first. */
export function messagesForNextGeneration(messages: readonly InboxMessage[]): InboxMessage[] {
  return messages.filter((m) => m.readByGeneration === null).sort((a, b) => a.id - b.id);
}

/** The inbox as the body reads it (`HANKWEAVE_LOOP_INBOX`): one attributed line per message. */
export function renderInbox(messages: readonly InboxMessage[]): string {
  return messages
    .map((m) => `[${m.kind} #${m.id} from ${m.author}] ${m.text.replaceAll("\n", " ")}`)
    .join("\n");
}
