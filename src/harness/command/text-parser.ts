import type { OutputParser, ParserSink } from "./output-parser.ts";
import { NO_USAGE } from "./output-parser.ts";

/**
 * Plain text output: each non-blank stdout line is assistant text. The agent reports no session,
 * verdict, usage or cost, so the exit code decides and cost stays "not reported".
 */
export function createTextParser(sink: ParserSink): OutputParser {
  const lines: string[] = [];
  return {
    line(text) {
      if (text.trim() === "") return;
      lines.push(text);
      sink.emit({ type: "assistant.text", text });
    },
    sessionId: () => undefined,
    verdict: () => undefined,
    reportsResult: false,
    text: () => lines.join("\n"),
    totals: () => NO_USAGE,
    streams: () => ({ last: undefined, worst: "completed" }),
    pendingTools: () => 0,
  };
}
