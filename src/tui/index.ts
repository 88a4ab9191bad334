/**
 * The terminal UI: an ink view over a protocol client. The run's own TUI is an in-process
 * `readandwrite` client of its server; `--attach` is a `readonly` one on another process's server.
 * ink and React are loaded only when a TUI starts (see `ink-modules.ts`).
 */
export { type AttachInput, attachCommand } from "./attach.ts";
export { type StartTuiOptions, startTui, type TuiSession } from "./run-tui.ts";
export { tuiWidth } from "./text.ts";
