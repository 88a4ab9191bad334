import { parseToolCall, parseUsage, splitFirst } from "./parse-arguments.ts";
import type { DirectiveName, StepBody } from "./script-step.ts";

/**
 * Parses the arguments of one known directive (its conditions already taken off). Returns the step,
 * or a message saying what is wrong (the caller adds the line number). `rest` is the text after the
 * directive name, trimmed.
 */
export function parseDirective(name: DirectiveName, rest: string): StepBody | string {
  switch (name) {
    case "write":
    case "append": {
      const [path, text] = splitFirst(rest);
      if (path === "") return `@${name} needs a path: @${name} <path> <text>`;
      return { kind: name, path, text: unescapeText(text) };
    }
    case "delete":
      if (rest === "") return "@delete needs a path: @delete <path>";
      if (/\s/.test(rest)) return `@delete takes one path, got "${rest}"`;
      return { kind: "delete", path: rest };
    case "run":
      if (rest === "") return "@run needs a shell command: @run <command>";
      return { kind: "run", command: rest };
    case "say":
    case "think":
      if (rest === "") return `@${name} needs a text: @${name} <text>`;
      return { kind: name, text: unescapeText(rest) };
    case "usage":
      return parseUsage(rest);
    case "fail":
      if (rest === "") return "@fail needs an error text: @fail [attempts=1,2] <error text>";
      return { kind: "fail", text: unescapeText(rest) };
    case "exhaust-context":
      if (rest !== "") return `@exhaust-context takes no arguments, got "${rest}"`;
      return { kind: name };
    case "max-tokens":
      return parseMaxTokens(rest);
    case "blocked": {
      const call = parseToolCall("blocked", rest);
      return typeof call === "string" ? call : { kind: "blocked", call };
    }
    case "crash":
      return parseCrash(rest);
    case "sleep":
      if (!/^\d+$/.test(rest)) return `@sleep needs a whole number of milliseconds, got "${rest}"`;
      return { kind: "sleep", ms: Number(rest) };
  }
}

/** In directive text, `\n` is a newline and `\\` a backslash; any other backslash is kept as is. */
export function unescapeText(text: string): string {
  return text.replace(/\\([\\n])/g, (_match, ch: string) => (ch === "n" ? "\n" : "\\"));
}

/** `@max-tokens [continue] [<tool> <path or command>]`. */
function parseMaxTokens(rest: string): StepBody | string {
  const [first, after] = splitFirst(rest);
  const continues = first === "continue";
  const callText = continues ? after : rest;
  if (callText === "") return { kind: "max-tokens", continues };
  const call = parseToolCall("max-tokens", callText);
  return typeof call === "string" ? call : { kind: "max-tokens", call, continues };
}

/** `@crash [<exit code> | <SIGNAL>]`: exit code 1 when nothing is given. */
function parseCrash(rest: string): StepBody | string {
  if (rest === "") return { kind: "crash", exit: { code: 1 } };
  if (/^\d{1,3}$/.test(rest) && Number(rest) <= 255) return { kind: "crash", exit: { code: Number(rest) } };
  if (/^SIG[A-Z0-9]+$/.test(rest)) return { kind: "crash", exit: { signal: rest } };
  return `@crash takes an exit code (0-255) or a signal name such as SIGKILL, got "${rest}"`;
}
