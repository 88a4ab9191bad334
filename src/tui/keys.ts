import type { CommandType } from "../server/index.ts";
import type { TuiState } from "./tui-model.ts";

/** The rollback menu: codons to roll back to (the newest first) and the highlighted one. */
export interface Menu {
  readonly choices: readonly string[];
  readonly index: number;
}

/** The keys the TUI reads, as ink reports them. */
export interface KeyFlags {
  readonly upArrow: boolean;
  readonly downArrow: boolean;
  readonly return: boolean;
  readonly escape: boolean;
  readonly ctrl: boolean;
}

export interface KeyInput {
  readonly input: string;
  readonly key: KeyFlags;
  readonly readOnly: boolean;
  readonly state: TuiState;
  readonly menu: Menu | undefined;
  /** How many times quit was asked already. */
  readonly quits: number;
}

/** What a key does: a command to send, the menu after it (`keep` leaves it), a note to show. */
export interface KeyAction {
  readonly send?: { readonly type: CommandType; readonly data?: Record<string, unknown> };
  readonly quit?: boolean;
  readonly detach?: boolean;
  readonly menu: Menu | undefined | "keep";
  readonly note: string | undefined;
}

const READ_ONLY_NOTE = "Read-only: this watcher cannot steer the run (q detaches).";

/**
 * The keys: `n` next (a waiting run goes on, a parked failure is retried, an ended run continues),
 * `s` skip, `r` the rollback menu (after a completed codon, restarting from there), `q` quit (the second
 * `q` forces). Ctrl-C is `q`. A read-only watcher only detaches. Pure.
 */
export function keyAction(input: KeyInput): KeyAction {
  const { key, readOnly, menu } = input;
  const text = input.input.toLowerCase();
  if (text === "q" || (key.ctrl && text === "c")) return quit(input);
  if (menu !== undefined) return inMenu(menu, key);
  if (!["n", "s", "r"].includes(text)) return { menu: "keep", note: undefined };
  if (readOnly) return { menu: "keep", note: READ_ONLY_NOTE };
  switch (text) {
    case "n":
      return { send: { type: "codon.next" }, menu: "keep", note: undefined };
    case "s":
      return { send: { type: "codon.skip" }, menu: "keep", note: undefined };
    default:
      return { menu: { choices: [...input.state.rollbackTargets].reverse(), index: 0 }, note: undefined };
  }
}

function quit(input: KeyInput): KeyAction {
  if (input.readOnly) return { detach: true, menu: undefined, note: "Detaching." };
  if (input.quits === 0) {
    return {
      send: { type: "server.shutdown" },
      quit: true,
      menu: undefined,
      note: "Stopping: waiting for the agent to exit. Press q again to force quit.",
    };
  }
  return { send: { type: "server.force_shutdown" }, quit: true, menu: undefined, note: "Forcing shutdown." };
}

function inMenu(menu: Menu, key: KeyFlags): KeyAction {
  const last = menu.choices.length - 1;
  if (key.escape) return { menu: undefined, note: undefined };
  if (key.upArrow) return { menu: { ...menu, index: Math.max(0, menu.index - 1) }, note: undefined };
  if (key.downArrow) return { menu: { ...menu, index: Math.min(last, menu.index + 1) }, note: undefined };
  const choice = menu.choices[menu.index];
  if (key.return && choice !== undefined) {
    return {
      send: {
        type: "rollback.toCodon",
        data: { codonId: choice, checkpointType: "completed", autoRestart: true },
      },
      menu: undefined,
      note: `Rolling back to after ${choice}, then restarting.`,
    };
  }
  return { menu: "keep", note: undefined };
}
