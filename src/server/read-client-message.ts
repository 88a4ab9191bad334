import type { z } from "zod";
import { type ErrorData, errorData } from "./frames.ts";
import { CommandMessage, HandshakeMessage, MESSAGES } from "./protocol.ts";

/** One text frame from a client, read: a handshake, a command, or what to answer instead. */
export type ClientMessage =
  | { readonly kind: "handshake"; readonly handshake: HandshakeMessage }
  | { readonly kind: "command"; readonly command: CommandMessage }
  | { readonly kind: "invalid"; readonly reply: ErrorData };

const HANDSHAKE_HINT =
  'Send {"type":"handshake","data":{"mode":"readonly"}} (or "readandwrite"), optionally with "sendPreviousEvents": true.';

/**
 * Reads a frame's text. Never throws: bad JSON, a value that is not an object, an unknown type or
 * malformed data each come back as the error to send to that client (the reference's messages, with
 * the JSON path and the fix in `context`).
 */
export function readClientMessage(text: string): ClientMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (caught) {
    const detail = caught instanceof Error ? caught.message : String(caught);
    return invalid(errorData(MESSAGES.commandFailed(detail)));
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return invalid(
      errorData(MESSAGES.invalidCommand, { context: "Expected a JSON object {id, type, data}" }),
    );
  }
  if ("type" in raw && raw.type === "handshake") {
    const handshake = HandshakeMessage.safeParse(raw);
    if (handshake.success) return { kind: "handshake", handshake: handshake.data };
    return invalid(
      errorData("Invalid handshake", { context: `${describeIssue(handshake.error)}. ${HANDSHAKE_HINT}` }),
    );
  }
  const command = CommandMessage.safeParse(raw);
  if (command.success) return { kind: "command", command: command.data };
  return invalid(errorData(MESSAGES.invalidCommand, { context: describeIssue(command.error) }));
}

function invalid(reply: ErrorData): ClientMessage {
  return { kind: "invalid", reply };
}

/** The first issue as `<json path>: <what is wrong>`, e.g. `data.codonId: expected string`. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid message";
  const path = issue.path.length === 0 ? "(message)" : issue.path.map(String).join(".");
  return `${path}: ${issue.message}`;
}
