import type { RawOptions } from "../cli-options.ts";
import type { InlineInput } from "./inline-input.ts";

/** The arguments once inline data is taken out: what is left for the path rules, and the input. */
export interface InlineArgs {
  readonly positionals: readonly string[];
  readonly raw: RawOptions;
  readonly input?: InlineInput;
}

/**
 * Takes inline data out of the arguments: `-i <text>`, a `-` in the data position (`hankweave -`,
 * `hankweave hank.json -`) or `--data -`. A `-` in the hank position stays (the loader explains that a
 * hank cannot come from stdin). Returns a message when the data is given twice.
 */
export function takeInlineInput(positionals: readonly string[], raw: RawOptions): InlineArgs | string {
  const text = typeof raw.input === "string" ? raw.input : undefined;
  const dataIsStdin = raw.data === "-";
  const stdinAt = positionals.length === 1 && positionals[0] === "-" ? 0 : positionals[1] === "-" ? 1 : -1;
  const stdinGiven = dataIsStdin || stdinAt !== -1;
  if (text !== undefined && stdinGiven) {
    return "The data source is given twice: -i/--input and '-' (stdin). Use one of them.";
  }
  if (dataIsStdin && stdinAt !== -1)
    return "The data source is given twice: '-' and --data -. Use one of them.";
  const rest = stdinAt === -1 ? positionals : positionals.filter((_, index) => index !== stdinAt);
  const { data: _data, ...withoutData } = raw;
  const input: InlineInput | undefined =
    text !== undefined ? { kind: "text", text } : stdinGiven ? { kind: "stdin" } : undefined;
  if (input === undefined) return { positionals, raw };
  return { positionals: rest, raw: dataIsStdin ? withoutData : raw, input };
}

/** Inline data is the whole data source: a data path beside it is a mistake. */
export function inlineConflict(
  input: InlineInput | undefined,
  dataPath: string | undefined,
): string | undefined {
  if (input === undefined || dataPath === undefined) return undefined;
  const what = input.kind === "text" ? "-i/--input" : "'-' (stdin)";
  return `The data source is given twice: '${dataPath}' and ${what}. Use one of them.`;
}
