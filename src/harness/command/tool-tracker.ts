import type { ParserSink } from "./output-parser.ts";

/**
 * Pairs tool calls with their results, so a result carries the tool's name and the time it took
 * (measured on the harness clock between the two lines, since agents rarely print it).
 */
export interface ToolTracker {
  use(toolUseId: string, toolName: string, input: Readonly<Record<string, unknown>>): void;
  result(toolUseId: string, result: string, isError: boolean, toolName?: string): void;
  pending(): number;
}

export function createToolTracker(sink: ParserSink): ToolTracker {
  const open = new Map<string, { readonly name: string; readonly startedAt: number }>();
  return {
    use(toolUseId, toolName, input) {
      open.set(toolUseId, { name: toolName, startedAt: sink.now() });
      sink.emit({ type: "tool.use", toolUseId, toolName, input });
    },
    result(toolUseId, result, isError, toolName) {
      const call = open.get(toolUseId);
      open.delete(toolUseId);
      sink.emit({
        type: "tool.result",
        toolUseId,
        toolName: call?.name ?? toolName ?? "unknown",
        result,
        isError,
        executionTimeMs: call === undefined ? 0 : Math.max(0, sink.now() - call.startedAt),
      });
    },
    pending: () => open.size,
  };
}
