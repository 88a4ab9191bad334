import { seconds } from "./text.ts";
import type { TuiState } from "./tui-model.ts";

/** After this long without an event, the TUI says what the run is waiting on. */
export const HEARTBEAT_AFTER_MS = 10_000;

const LABELS = {
  starting: "Starting",
  rig: "Rig running",
  model: "Model thinking",
  tool: "Tool running",
  sentinels: "Completing sentinels",
  between: "Between codons",
} as const;

/**
 * The heartbeat line after `HEARTBEAT_AFTER_MS` of silence while the run works: the phase, how long
 * it has been quiet, and the last rig line as a hint while a rig runs. Nothing while the run waits for
 * a command or is over. Pure: `now` is the TUI's clock.
 */
export function heartbeat(state: TuiState, now: number): string | undefined {
  if (state.phase === "parked" || state.phase === "ended" || state.connection === "closed") return undefined;
  const silence = now - state.lastEventAt;
  if (silence < HEARTBEAT_AFTER_MS) return undefined;
  const tool = state.phase === "tool" ? state.activity.findLast((line) => line.kind === "tool") : undefined;
  const label = tool === undefined ? LABELS[state.phase] : `Running ${tool.text.split(" ")[0] ?? "a tool"}`;
  const hint = state.phase === "rig" && state.lastRigLine !== undefined ? `, last: ${state.lastRigLine}` : "";
  return `... ${label} (${seconds(silence)} without events${hint})`;
}
