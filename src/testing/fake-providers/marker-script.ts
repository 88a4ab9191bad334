import type { FakeReply, FakeRequestView, FakeUsage } from "./fake-types.ts";
import { resolveToolName } from "./plan-answer.ts";

/** A marker found in a prompt: each becomes one tool call, in order of appearance. */
export type Marker =
  | { readonly kind: "write"; readonly path: string }
  | { readonly kind: "run"; readonly command: string };

/** `WRITE_FILE=<path>` (the path ends at whitespace) and `RUN=<command>` (the command ends at the line's end). */
const MARKER = /\bWRITE_FILE=(\S+)|\bRUN=(.*)$/gm;

export function findMarkers(prompt: string): Marker[] {
  const markers: Marker[] = [];
  for (const match of prompt.matchAll(MARKER)) {
    if (match[1] !== undefined) markers.push({ kind: "write", path: match[1] });
    else if (match[2] !== undefined && match[2].trim() !== "")
      markers.push({ kind: "run", command: match[2].trim() });
  }
  return markers;
}

export interface MarkerScriptOptions {
  /** What WRITE_FILE writes (default "written by the fake provider\n"). */
  readonly content?: string;
  /** The final text; default `Done. Last tool result: <text>`, or `Done.` when no tool ran. */
  readonly finalText?: (request: FakeRequestView) => string;
  /** Usage of every reply; default estimated (see `FakeUsage`). */
  readonly usage?: FakeUsage;
}

export const DEFAULT_MARKER_CONTENT = "written by the fake provider\n";

function defaultFinalText(request: FakeRequestView): string {
  const last = request.toolResults.at(-1);
  return last === undefined ? "Done." : `Done. Last tool result: ${last.text}`;
}

/** The write tool's path argument: `path` when its schema has that and no `file_path` (pi), else `file_path` (Claude Code). */
function pathKey(request: FakeRequestView, toolName: string): string {
  const properties = request.tools.find((tool) => tool.name === toolName)?.properties ?? [];
  return properties.includes("path") && !properties.includes("file_path") ? "path" : "file_path";
}

/**
 * The reference's marker script: the n-th request of a turn (n = tool results since the prompt)
 * calls the tool of the prompt's n-th marker (WRITE_FILE → the write tool, RUN → the bash tool);
 * after the last marker, or when the request offers no tools (a side request such as a title), it
 * answers with final text. Stateless: every decision comes from the request.
 */
export function markerScript(options: MarkerScriptOptions = {}): (request: FakeRequestView) => FakeReply {
  const usage = options.usage === undefined ? {} : { usage: options.usage };
  return (request) => {
    const marker = findMarkers(request.prompt)[request.step];
    if (marker === undefined || request.tools.length === 0) {
      return { type: "text", text: (options.finalText ?? defaultFinalText)(request), ...usage };
    }
    if (marker.kind === "run") {
      return { type: "tool", calls: [{ tool: "bash", input: { command: marker.command } }], ...usage };
    }
    const name = resolveToolName(request, "write");
    const input = {
      [pathKey(request, name)]: marker.path,
      content: options.content ?? DEFAULT_MARKER_CONTENT,
    };
    return { type: "tool", calls: [{ tool: name, input }], ...usage };
  };
}
