import type { ReactNode } from "react";
import { codonPositionText, countsText, TOKENS_NOT_REPORTED, tokensReported } from "../journal/run-words.ts";
import { heartbeat } from "./heartbeat.ts";
import type { InkModules } from "./ink-modules.ts";
import { budgetRows, summaryLines, tableText } from "./summary.ts";
import { count, dollars, foldLine, oneLine, seconds } from "./text.ts";
import { type ActivityLine, type LogLine, type Tone, type TuiState, timelineOf } from "./tui-model.ts";

/** What the view needs besides the state: the clock, the width, colour, the mode and the UI's own state. */
export interface ViewProps {
  readonly state: TuiState;
  readonly now: number;
  readonly width: number;
  readonly color: boolean;
  readonly readOnly: boolean;
  /** The rollback menu, when open: the choices and the highlighted one. */
  readonly menu: { readonly choices: readonly string[]; readonly index: number } | undefined;
  /** A one-line message from the UI itself (`Press q again to force quit`). */
  readonly note: string | undefined;
}

const TONE_COLOR: Record<Tone, string> = {
  ok: "green",
  fail: "red",
  warn: "yellow",
  info: "cyan",
  muted: "gray",
};

/**
 * The TUI's screen as a component, built over the given ink and React (see `InkModules`): the timeline
 * (printed once, above), then the live area: header, running codon and its activity, heartbeat, the
 * waiting box, the rollback menu, totals, the budget table, the final summary and the keys.
 */
export function createTuiView({ ink, react }: InkModules): (props: ViewProps) => ReactNode {
  const { Box, Static, Text } = ink;
  const h = react.createElement;

  /** Text with a tone; without colour (`NO_COLOR`, no TTY) it is plain. */
  function line(props: ViewProps, text: string, tone?: Tone, key?: string | number): ReactNode {
    const color = props.color && tone !== undefined ? TONE_COLOR[tone] : undefined;
    return h(Text, { key, wrap: "truncate-end", ...(color !== undefined && { color }) }, text);
  }

  // biome-ignore lint/correctness/noComponentHookFactories: the component closes over ink and React, loaded lazily (ink-modules.ts); the factory runs once per TUI.
  function TuiView(props: ViewProps): ReactNode {
    const { state } = props;
    return h(
      Box,
      { flexDirection: "column", width: props.width },
      h(Static<LogLine>, {
        items: react.useMemo(() => timelineOf(state).slice(), [state.log.length]),
        children: (item: LogLine) => line(props, oneLine(item.text, props.width), item.tone, item.key),
      }),
      header(props),
      running(props),
      waiting(props),
      menu(props),
      totalsLine(props),
      budget(props),
      summary(props),
      props.note === undefined ? null : line(props, props.note, "warn"),
      keys(props),
    );
  }

  function header(props: ViewProps): ReactNode {
    const { server, connection } = props.state;
    const where = server === undefined ? "connecting..." : `${server.executionPath}  port ${server.port}`;
    const mode = props.readOnly ? "  (read-only)" : "";
    const closed = connection === "closed" ? "  (disconnected)" : "";
    return line(props, oneLine(`hankweave  ${where}${mode}${closed}`, props.width), "muted");
  }

  function running(props: ViewProps): ReactNode {
    const { running: codon, activity } = props.state;
    const beat = heartbeat(props.state, props.now);
    if (codon === undefined) return beat === undefined ? null : line(props, beat, "muted");
    const attempt = codon.attempt > 1 ? ` (attempt ${codon.attempt})` : "";
    const where = codonPositionText(codon.id, props.state.run.view());
    const title = `> ${codon.id}${codon.name !== codon.id ? ` ${codon.name}` : ""}${attempt}  ${where}  ${seconds(Math.max(0, props.now - codon.since))}`;
    return h(
      Box,
      { flexDirection: "column" },
      line(props, oneLine(title, props.width), "info"),
      ...activity.map((item, i) =>
        line(props, oneLine(activityText(item), props.width), activityTone(item), i),
      ),
      beat === undefined ? null : line(props, oneLine(beat, props.width), "muted"),
    );
  }

  function activityText(item: ActivityLine): string {
    switch (item.kind) {
      case "tool":
        return `  ${item.ok === undefined ? "~" : item.ok ? "✓" : "✗"} ${item.text}`;
      case "rig":
        return `  rig | ${item.text}`;
      case "thinking":
        return `  (thinking) ${item.text}`;
      case "text":
        return `  ${item.text}`;
    }
  }

  function activityTone(item: ActivityLine): Tone | undefined {
    if (item.kind === "tool") return item.ok === false ? "fail" : undefined;
    return item.kind === "text" ? undefined : "muted";
  }

  function waiting(props: ViewProps): ReactNode {
    const message = props.state.parked;
    if (message === undefined) return null;
    const hint = props.readOnly
      ? "Read-only: a readandwrite client answers it."
      : "n  retry / go on     s  skip the codon     r  roll back     q  quit";
    return box(props, "Waiting for input", [message, hint], "warn");
  }

  function menu(props: ViewProps): ReactNode {
    if (props.menu === undefined) return null;
    const { choices, index } = props.menu;
    const lines =
      choices.length === 0
        ? ["No completed codon to roll back to yet.", "esc  close"]
        : [
            ...choices.map((id, i) => `${i === index ? ">" : " "} after ${id}`),
            "up/down  choose     enter  roll back and restart     esc  close",
          ];
    return box(props, "Roll back to", lines, "info");
  }

  function totalsLine(props: ViewProps): ReactNode {
    const { totals } = props.state;
    const tokens = tokensReported(totals.costSource)
      ? `${count(totals.inputTokens)} in / ${count(totals.outputTokens)} out`
      : TOKENS_NOT_REPORTED;
    const text = `Codons ${countsText(totals)}   Tokens ${tokens}   Cost ${dollars(totals.costUsd)}`;
    return line(props, oneLine(text, props.width), "muted");
  }

  function budget(props: ViewProps): ReactNode {
    const { budget: summary, outcome } = props.state;
    if (summary === undefined || outcome === undefined) return null;
    return box(props, "Budget (spent / limit)", tableText(budgetRows(summary)), "muted");
  }

  function summary(props: ViewProps): ReactNode {
    const box_ = summaryLines(props.state);
    if (box_ === undefined) return null;
    const tone = props.state.outcome?.kind === "completed" ? "ok" : "fail";
    // Paths and the resume command are folded, never cut: the reader copies them.
    const folded = box_.lines.flatMap((text) => foldLine(text, props.width - 4, SUMMARY_LABEL_WIDTH));
    return box(props, box_.title, folded, tone);
  }

  function keys(props: ViewProps): ReactNode {
    if (props.menu !== undefined) return null;
    const text = props.readOnly
      ? "q  detach"
      : "n  next     s  skip     r  roll back     q  quit (twice: force)";
    return line(props, text, "muted");
  }

  /** A bordered box with a title line; the border is coloured only when colour is on. */
  /** `Resume     `: the width of the summary's labels, under which a folded value goes on. */
  const SUMMARY_LABEL_WIDTH = 11;

  function box(props: ViewProps, title: string, lines: readonly string[], tone: Tone): ReactNode {
    const inner = props.width - 4;
    return h(
      Box,
      {
        flexDirection: "column",
        borderStyle: "round",
        paddingX: 1,
        width: props.width,
        ...(props.color && { borderColor: TONE_COLOR[tone] }),
      },
      line(props, oneLine(title, inner), tone),
      ...lines.map((text, i) => line(props, oneLine(text, inner), undefined, i)),
    );
  }

  return TuiView;
}
