import { isContextOverflow } from "../classify-failure.ts";
import type { UsageIncrement } from "../harness.ts";
import { emitContentBlocks } from "./content-blocks.ts";
import {
  asArray,
  asCount,
  asRecord,
  asString,
  contentText,
  type JsonRecord,
  parseJsonLine,
} from "./json-fields.ts";
import type { AgentVerdict, OutputParser, ParserSink } from "./output-parser.ts";
import { createStreamReasons } from "./stream-reasons.ts";
import { createToolTracker } from "./tool-tracker.ts";
import { createUsageTotals } from "./usage-totals.ts";

/**
 * Reads `claude -p --output-format stream-json --verbose`: `system/init` names the session;
 * `assistant` lines carry text, thinking and tool_use blocks; `user` lines carry tool results; the
 * `result` line carries the verdict (`is_error`, not `subtype`, says whether it failed), the summed
 * usage and `total_cost_usd`. Usage on `assistant` lines is a start-of-message snapshot, so usage is
 * reported once, from the result.
 */
export function createClaudeStreamParser(sink: ParserSink): OutputParser {
  let sessionId: string | undefined;
  let verdict: AgentVerdict | undefined;
  const texts: string[] = [];
  const tools = createToolTracker(sink);
  const usage = createUsageTotals();
  const streams = createStreamReasons();

  const noteSession = (line: JsonRecord): void => {
    const id = asString(line.session_id);
    if (sessionId !== undefined || id === undefined || id === "") return;
    sessionId = id;
    sink.emit({ type: "session.started", sessionId: id });
  };

  const onSystem = (line: JsonRecord): void => {
    if (line.subtype === "init") noteSession(line);
    if (line.subtype === "compact_boundary") {
      const preTokens = asRecord(line.compact_metadata).pre_tokens;
      sink.emit(typeof preTokens === "number" ? { type: "compaction", preTokens } : { type: "compaction" });
    }
  };

  const onAssistant = (line: JsonRecord): void => {
    noteSession(line);
    const message = asRecord(line.message);
    // Claude Code reports API errors as a synthetic assistant message; the result line carries them.
    if (message.model === "<synthetic>") return;
    texts.push(...emitContentBlocks(message.content, sink, tools, { type: "tool_use", inputField: "input" }));
  };

  const onUser = (line: JsonRecord): void => {
    for (const block of asArray(asRecord(line.message).content).map(asRecord)) {
      if (block.type !== "tool_result") continue;
      tools.result(asString(block.tool_use_id) ?? "", contentText(block.content), block.is_error === true);
    }
  };

  const onResult = (line: JsonRecord): void => {
    noteSession(line);
    const reported = asRecord(line.usage);
    const cost = typeof line.total_cost_usd === "number" ? line.total_cost_usd : null;
    if (line.usage !== undefined || cost !== null) {
      const increment: UsageIncrement = {
        inputTokens: asCount(reported.input_tokens),
        outputTokens: asCount(reported.output_tokens),
        cacheCreationTokens: asCount(reported.cache_creation_input_tokens),
        cacheReadTokens: asCount(reported.cache_read_input_tokens),
        costUsd: cost,
      };
      usage.add(increment);
      sink.emit({ type: "usage", usage: increment });
    }
    verdict = resultVerdict(line);
    streams.add(
      verdict.kind === "completed" ? "completed" : verdict.kind === "max-tokens" ? "max-tokens" : "error",
    );
  };

  return {
    line(text) {
      const line = parseJsonLine(text);
      if (line === undefined) return;
      if (line.type === "system") onSystem(line);
      else if (line.type === "assistant") onAssistant(line);
      else if (line.type === "user") onUser(line);
      else if (line.type === "result") onResult(line);
    },
    sessionId: () => sessionId,
    verdict: () => verdict,
    reportsResult: true,
    text: () => texts.join("\n"),
    totals: () => usage.current(),
    streams: () => streams.current(),
    pendingTools: () => tools.pending(),
  };
}

function resultVerdict(line: JsonRecord): AgentVerdict {
  const resultText = asString(line.result);
  if (line.is_error === true) {
    const message = resultText ?? `Claude Code result: ${asString(line.subtype) ?? "error"}`;
    const status = typeof line.api_error_status === "number" ? line.api_error_status : undefined;
    const overflow = line.terminal_reason === "prompt_too_long" || isContextOverflow(message);
    return { kind: "error", failure: status === undefined ? { message } : { status, message }, overflow };
  }
  if (line.stop_reason === "max_tokens") {
    return { kind: "max-tokens", message: "The agent's last response was cut at max_tokens" };
  }
  return resultText === undefined ? { kind: "completed" } : { kind: "completed", resultText };
}
