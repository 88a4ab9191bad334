import { isContextOverflow } from "../classify-failure.ts";
import type { EndReason } from "../end-reason.ts";
import type { UsageIncrement } from "../harness.ts";
import { emitContentBlocks } from "./content-blocks.ts";
import { asCount, asRecord, asString, contentText, type JsonRecord, parseJsonLine } from "./json-fields.ts";
import type { AgentVerdict, OutputParser, ParserSink } from "./output-parser.ts";
import { createStreamReasons } from "./stream-reasons.ts";
import { createToolTracker } from "./tool-tracker.ts";
import { createUsageTotals } from "./usage-totals.ts";

/** pi's assistant `stopReason` as a stream end reason. */
const STOP_REASONS: Readonly<Record<string, EndReason>> = {
  stop: "completed",
  toolUse: "completed",
  length: "max-tokens",
  error: "error",
  aborted: "aborted",
};

interface LastAssistant {
  readonly stopReason: string;
  readonly errorMessage: string | undefined;
  readonly text: string;
}

/**
 * Reads `pi --mode json`: the `session` header names the session; each assistant `message_end`
 * carries its content (text, thinking, toolCall), its usage with pi's cost, and its `stopReason`;
 * `tool_execution_end` carries tool results; `agent_end` ends the run. pi exits 0 even when the
 * provider failed, so the verdict comes from the last assistant message's `stopReason`.
 */
export function createPiJsonParser(sink: ParserSink): OutputParser {
  let sessionId: string | undefined;
  let ended = false;
  let last: LastAssistant | undefined;
  const texts: string[] = [];
  const tools = createToolTracker(sink);
  const usage = createUsageTotals();
  const streams = createStreamReasons();

  const onAssistantEnd = (message: JsonRecord): void => {
    const blockTexts = emitContentBlocks(message.content, sink, tools, {
      type: "toolCall",
      inputField: "arguments",
    });
    texts.push(...blockTexts);
    reportUsage(asRecord(message.usage));
    const stopReason = asString(message.stopReason) ?? "stop";
    streams.add(STOP_REASONS[stopReason] ?? "completed");
    last = { stopReason, errorMessage: asString(message.errorMessage), text: blockTexts.join("\n") };
  };

  const reportUsage = (reported: JsonRecord): void => {
    const cost = asRecord(reported.cost).total;
    const increment: UsageIncrement = {
      inputTokens: asCount(reported.input),
      outputTokens: asCount(reported.output),
      cacheCreationTokens: asCount(reported.cacheWrite),
      cacheReadTokens: asCount(reported.cacheRead),
      costUsd: typeof cost === "number" ? cost : null,
    };
    const tokens =
      increment.inputTokens +
      increment.outputTokens +
      increment.cacheCreationTokens +
      increment.cacheReadTokens;
    // A failed request reports all zeros: nothing was used, so nothing is reported.
    if (tokens === 0 && !increment.costUsd) return;
    usage.add(increment);
    sink.emit({ type: "usage", usage: increment });
  };

  const onLine = (line: JsonRecord): void => {
    switch (line.type) {
      case "session": {
        const id = asString(line.id);
        if (sessionId === undefined && id !== undefined && id !== "") {
          sessionId = id;
          sink.emit({ type: "session.started", sessionId: id });
        }
        return;
      }
      case "message_end": {
        const message = asRecord(line.message);
        if (message.role === "assistant") onAssistantEnd(message);
        return;
      }
      case "tool_execution_end": {
        const result = contentText(asRecord(line.result).content);
        tools.result(asString(line.toolCallId) ?? "", result, line.isError === true, asString(line.toolName));
        return;
      }
      case "compaction_end":
        if (line.aborted !== true && line.result !== undefined) sink.emit({ type: "compaction" });
        return;
      case "agent_end":
        ended = true;
        return;
    }
  };

  return {
    line(text) {
      const line = parseJsonLine(text);
      if (line !== undefined) onLine(line);
    },
    sessionId: () => sessionId,
    verdict: () => (ended ? piVerdict(last) : undefined),
    reportsResult: true,
    text: () => texts.join("\n"),
    totals: () => usage.current(),
    streams: () => streams.current(),
    pendingTools: () => tools.pending(),
  };
}

/** A leading HTTP status in pi's error messages (`429 {"type":"error",…}`, `400 This model's…`). */
function leadingStatus(message: string): number | undefined {
  const match = /^([1-5]\d\d)\b/.exec(message.trim());
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function piVerdict(last: LastAssistant | undefined): AgentVerdict {
  if (last === undefined) return { kind: "completed" };
  if (last.stopReason === "error" || last.stopReason === "aborted") {
    const said =
      last.errorMessage ?? (last.stopReason === "aborted" ? "Request was aborted." : "pi reported an error");
    // Node's fetch reports a response body cut off in transfer as a bare "terminated" (a transport error).
    const message =
      said.trim() === "terminated" ? "connection closed: the response stream was terminated" : said;
    const status = leadingStatus(message);
    const failure = status === undefined ? { message } : { status, message };
    return { kind: "error", failure, overflow: isContextOverflow(message) };
  }
  if (last.stopReason === "length") {
    return { kind: "max-tokens", message: "The agent's last response was cut at its output token limit" };
  }
  return last.text === "" ? { kind: "completed" } : { kind: "completed", resultText: last.text };
}
