import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JournaledEvent } from "../../src/events/index.ts";
import type { Agent } from "../../src/workflows/index.ts";

/**
 * Scripted agents exchange text for real: a step's prompt is its script (docs/scripted-agent.md), and its
 * output is the text it says last. `chain` writes a conversation of scripts in which each step acts
 * (appends to a trail file...) and then says the next step's whole script, so the loop's data flow is
 * what carries the conversation from step to step and across iterations.
 */

/** `@say` whose text is exactly `script` (the directive turns `\n` into a newline and `\\` into `\`). */
export function sayScript(script: string): string {
  return `@say ${script.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`;
}

/** The first step's script of a conversation: step k does `actions[k]`, then hands over step k+1's script. */
export function chain(actions: readonly string[], lastWords = "done"): string {
  let script = `${actions.at(-1) ?? ""}\n@say ${lastWords}`;
  for (let index = actions.length - 2; index >= 0; index--)
    script = `${actions[index]}\n${sayScript(script)}`;
  return script;
}

/** Appends `line` to `trail.txt` in the workspace, so the order of the steps can be read back. */
export const mark = (line: string): string => `@append trail.txt ${line}`;

export function scripted(name: string, extra: Partial<Agent> = {}): Agent {
  return { name, model: "scripted", ...extra };
}

export const CODER = scripted("coder");
export const REVIEWER = scripted("reviewer");

export interface Sandbox {
  readonly root: string;
  path(...parts: string[]): string;
  read(...parts: string[]): string;
  remove(): void;
}

export function sandbox(prefix: string): Sandbox {
  const root = mkdtempSync(join(tmpdir(), `hankweave-workflows-${prefix}-`));
  return {
    root,
    path: (...parts) => join(root, ...parts),
    read: (...parts) => readFileSync(join(root, ...parts), "utf8"),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** An `onEvent` that keeps every event, and what it kept. */
export function recorder(): {
  readonly events: JournaledEvent[];
  readonly onEvent: (event: JournaledEvent) => void;
} {
  const events: JournaledEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}

/** `codon.started` of each step as `<codonId> <- <previous session or ->`, in order. */
export function sessionsOf(events: readonly JournaledEvent[]): string[] {
  const ids = new Map<string, string>();
  const named = (id: string | undefined): string => {
    if (id === undefined) return "-";
    if (!ids.has(id)) ids.set(id, `s${ids.size + 1}`);
    return ids.get(id) ?? "-";
  };
  return events.flatMap((event) =>
    event.type === "codon.started"
      ? [`${event.data.codonId} ${named(event.data.sessionId)}<-${named(event.data.previousSessionId)}`]
      : [],
  );
}
