import { existsSync } from "node:fs";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import type { AgentSessionEvent } from "@mariozechner/pi-coding-agent";
import { type EndReason, type LayerEndReasons, worstEndReason } from "../end-reason.ts";
import type { HarnessEvent, SessionTotals } from "../harness.ts";
import type { PiClock } from "./pi-options.ts";
import { argsRecord, pathArgument, resolveToolPath, toolEffects, toolResultText } from "./tool-facts.ts";

type StopReason = AssistantMessage["stopReason"];

/** How one model response ended, as a layer end reason. */
export function streamEndReason(stop: StopReason): EndReason {
  switch (stop) {
    case "stop":
    case "toolUse":
      return "completed";
    case "length":
      return "max-tokens";
    case "error":
      return "error";
    case "aborted":
      return "aborted";
  }
}

export interface PiEventMapperDeps {
  readonly emit: (event: HarnessEvent) => void;
  readonly clock: PiClock;
  readonly cwd: string;
  /** Whether pi's cost figures are real (the model has prices); else usage carries a null cost. */
  readonly priced: boolean;
  /** The session's cancel signal: a tool batch that ends after it fired ended `aborted`. */
  readonly signal: AbortSignal;
}

/** What the mapper learned about the prompt, read by the outcome decision. */
export interface MappedSession {
  readonly lastAssistant: AssistantMessage | undefined;
  readonly layers: LayerEndReasons;
  readonly totals: SessionTotals;
  readonly resultText: string | undefined;
  /** Names of tool calls blocked because their response was cut off at max tokens. */
  readonly truncatedCalls: readonly string[];
}

interface ToolRun {
  readonly startedAt: number;
  readonly name: string;
  readonly args: unknown;
}

const blocksOf = (message: AssistantMessage, type: "text" | "thinking"): string =>
  message.content
    .map((block) =>
      block.type === "text" && type === "text"
        ? block.text
        : block.type === "thinking" && type === "thinking"
          ? block.thinking
          : "",
    )
    .join("");

/**
 * Turns pi's session events into harness events and keeps what the outcome needs. pi reports one
 * "turn" per model response plus its tool batch; each becomes a `turn.ended` here, and the session's
 * turn layer keeps the worst reason of them all.
 *
 * Once a response was cut off at max tokens, the truncation guard has blocked its calls and aborted
 * the agent; the mapper reports that step and ignores the aborted request pi starts after it.
 */
export class PiEventMapper {
  readonly #deps: PiEventMapperDeps;
  #last: AssistantMessage | undefined;
  #stream: EndReason = "completed";
  #toolBatch: EndReason = "completed";
  #turn: EndReason = "completed";
  #stepBatch: EndReason | undefined;
  #halted = false;
  #resultText: string | undefined;
  readonly #truncated: string[] = [];
  readonly #tools = new Map<string, ToolRun>();
  readonly #existed = new Map<string, boolean>();
  readonly #totals = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, cost: 0 };
  #agentEnded = (): void => undefined;
  /** Settles when pi reported the end of the agent run (all of its events were delivered). */
  readonly agentEnded: Promise<void>;

  constructor(deps: PiEventMapperDeps) {
    this.#deps = deps;
    this.agentEnded = new Promise((resolve) => {
      this.#agentEnded = resolve;
    });
  }

  /** Called by the truncation guard just before a call runs: remembers whether its target existed. */
  readonly beforeRun = (toolCallId: string, args: unknown): void => {
    const path = pathArgument(args);
    if (path === undefined) return;
    this.#existed.set(toolCallId, existsSync(resolveToolPath(this.#deps.cwd, path).absolute));
  };

  readonly handle = (event: AgentSessionEvent): void => {
    if (event.type === "agent_end") {
      this.#agentEnded();
      return;
    }
    if (this.#halted) return;
    switch (event.type) {
      case "message_end":
        if (event.message.role === "assistant") this.onAssistant(event.message);
        return;
      case "tool_execution_start":
        this.onToolStart(event.toolCallId, event.toolName, event.args);
        return;
      case "tool_execution_end":
        this.onToolEnd(event.toolCallId, event.toolName, event.result, event.isError);
        return;
      case "turn_end":
        this.onTurnEnd();
        return;
      default:
        return;
    }
  };

  result(): MappedSession {
    const { cost, ...tokens } = this.#totals;
    return {
      lastAssistant: this.#last,
      layers: { stream: this.#stream, toolBatch: this.#toolBatch, turn: this.#turn },
      totals: { ...tokens, costUsd: this.#deps.priced ? cost : null },
      resultText: this.#resultText,
      truncatedCalls: [...this.#truncated],
    };
  }

  private onAssistant(message: AssistantMessage): void {
    const { emit } = this.#deps;
    this.#last = message;
    this.#stream = streamEndReason(message.stopReason);
    this.#turn = worstEndReason(this.#turn, this.#stream);
    const thinking = blocksOf(message, "thinking");
    if (thinking.trim() !== "") emit({ type: "assistant.thinking", text: thinking });
    const text = blocksOf(message, "text");
    if (text.trim() !== "") {
      emit({ type: "assistant.text", text });
      this.#resultText = text;
    }
    this.onUsage(message.usage);
  }

  private onUsage(usage: AssistantMessage["usage"]): void {
    const tokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    if (tokens === 0 && usage.cost.total === 0) return;
    const totals = this.#totals;
    totals.inputTokens += usage.input;
    totals.outputTokens += usage.output;
    totals.cacheCreationTokens += usage.cacheWrite;
    totals.cacheReadTokens += usage.cacheRead;
    totals.cost += usage.cost.total;
    this.#deps.emit({
      type: "usage",
      usage: {
        inputTokens: usage.input,
        outputTokens: usage.output,
        cacheCreationTokens: usage.cacheWrite,
        cacheReadTokens: usage.cacheRead,
        costUsd: this.#deps.priced ? usage.cost.total : null,
      },
    });
  }

  private get truncatedStep(): boolean {
    return this.#last?.stopReason === "length";
  }

  private onToolStart(toolCallId: string, toolName: string, args: unknown): void {
    this.#tools.set(toolCallId, { startedAt: this.#deps.clock.now(), name: toolName, args });
    this.#stepBatch ??= "completed";
    if (this.truncatedStep) this.#truncated.push(toolName);
    // A call from a truncated response never runs, whatever the tool.
    const effects = this.truncatedStep ? "none" : toolEffects(toolName);
    this.#deps.emit({ type: "tool.use", toolUseId: toolCallId, toolName, input: argsRecord(args), effects });
  }

  private onToolEnd(toolCallId: string, toolName: string, result: unknown, isError: boolean): void {
    const { emit, clock, signal } = this.#deps;
    const run = this.#tools.get(toolCallId);
    this.#tools.delete(toolCallId);
    const executionTimeMs = run === undefined ? 0 : clock.now() - run.startedAt;
    const text = toolResultText(result);
    emit({ type: "tool.result", toolUseId: toolCallId, toolName, result: text, isError, executionTimeMs });
    this.#stepBatch = worstEndReason(
      this.#stepBatch ?? "completed",
      signal.aborted ? "aborted" : "completed",
    );
    if (isError || this.truncatedStep || run === undefined) return;
    this.reportFileChange(toolCallId, toolName, run.args);
  }

  private reportFileChange(toolCallId: string, toolName: string, args: unknown): void {
    if (toolName !== "write" && toolName !== "edit") return;
    const path = pathArgument(args);
    if (path === undefined) return;
    const target = resolveToolPath(this.#deps.cwd, path);
    if (target.relative === undefined) return;
    const existed = this.#existed.get(toolCallId) ?? toolName === "edit";
    this.#existed.delete(toolCallId);
    const action = existed ? "modified" : "created";
    this.#deps.emit({ type: "file.changed", path: target.relative, action, toolUseId: toolCallId });
  }

  private onTurnEnd(): void {
    let reason = this.#stream;
    if (this.#stepBatch !== undefined) {
      this.#toolBatch = this.#stepBatch;
      this.#turn = worstEndReason(this.#turn, this.#stepBatch);
      reason = worstEndReason(reason, this.#stepBatch);
    }
    this.#stepBatch = undefined;
    this.#deps.emit({ type: "turn.ended", reason });
    if (this.truncatedStep) this.#halted = true;
  }
}
