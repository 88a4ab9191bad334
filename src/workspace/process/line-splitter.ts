import { StringDecoder } from "node:string_decoder";

/** Longest line delivered whole; a longer run without a newline is cut into pieces of this size. */
export const MAX_LINE_CHARS = 64 * 1024;

export interface LineSplitter {
  /** Feeds raw bytes; complete lines are delivered synchronously, in order. */
  push(chunk: Buffer): void;
  /** Delivers the unterminated rest, if any. Call once, when the stream has ended. */
  end(): void;
}

/**
 * Splits a byte stream into text lines: UTF-8 decoded across chunk boundaries, split on `\n`, a
 * trailing `\r` removed (CRLF output). Lines are delivered without their terminator; an empty line
 * is delivered as "". A run longer than `maxLineChars` is delivered in pieces so one endless line
 * (a progress bar redrawn with `\r`) cannot grow without bound.
 */
export function createLineSplitter(
  onLine: (line: string) => void,
  maxLineChars: number = MAX_LINE_CHARS,
): LineSplitter {
  const decoder = new StringDecoder("utf8");
  let partial = "";
  /** Delivers `text` in pieces of at most maxLineChars; `rest` keeps what is left over, if allowed. */
  const cut = (text: string, keepRest: boolean): string => {
    let rest = text;
    while (rest.length > maxLineChars) {
      onLine(rest.slice(0, maxLineChars));
      rest = rest.slice(maxLineChars);
    }
    if (keepRest) return rest;
    onLine(rest);
    return "";
  };
  const drain = (text: string): void => {
    partial += text;
    let newline = partial.indexOf("\n");
    while (newline !== -1) {
      const line = partial.slice(0, newline);
      cut(line.endsWith("\r") ? line.slice(0, -1) : line, false);
      partial = partial.slice(newline + 1);
      newline = partial.indexOf("\n");
    }
    partial = cut(partial, true);
  };
  return {
    push: (chunk) => drain(decoder.write(chunk)),
    end() {
      drain(decoder.end());
      if (partial !== "") cut(partial, false);
      partial = "";
    },
  };
}
