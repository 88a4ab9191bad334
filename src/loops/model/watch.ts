/**
 * Watch Loops as pure functions: what a source's output means, when a watching run polls next, and
 * when a silent source ends it. A watch Loop runs one run per tick: the run waits in `watching`, polls
 * its source when due, and on a successful poll ticks into `running` with the items the source printed
 * (none: `no-op: clean_tick`). The source's cursor is stored with the tick, in the same transaction.
 */

export interface WatchItem {
  readonly id: string;
  readonly [field: string]: unknown;
}

export type SourcePoll =
  | { readonly ok: true; readonly items: readonly WatchItem[]; readonly cursor: string | null }
  | { readonly ok: false; readonly message: string };

/** Parses a source's stdout: `{"items": [{"id": ...}], "cursor": "..."}` on its last non-empty line. */
export function parseSourceOutput(stdout: string): SourcePoll {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return {
      ok: false,
      message: `the source printed no JSON object on its last line: ${line.slice(0, 200)}`,
    };
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    !Array.isArray((parsed as { items?: unknown }).items)
  ) {
    return { ok: false, message: 'the source output has no "items" array' };
  }
  const { items, cursor } = parsed as { items: unknown[]; cursor?: unknown };
  const bad = items.findIndex(
    (item) => typeof item !== "object" || item === null || typeof (item as { id?: unknown }).id !== "string",
  );
  if (bad >= 0) return { ok: false, message: `items[${bad}] has no string "id"` };
  if (cursor !== undefined && cursor !== null && typeof cursor !== "string") {
    return { ok: false, message: '"cursor" must be a string' };
  }
  return { ok: true, items: items as WatchItem[], cursor: typeof cursor === "string" ? cursor : null };
}

/**
 * When a watching run polls: the first run of a chain at once, a successor (armed by the tick before
 * it) `everySec` after it was armed, and after a failed poll `everySec` after that poll.
 */
export function pollDueAt(input: {
  readonly armedAtMs: number;
  readonly everySec: number;
  readonly successor: boolean;
  readonly lastFailedPollMs: number | null;
}): number {
  if (input.lastFailedPollMs !== null) return input.lastFailedPollMs + input.everySec * 1000;
  return input.armedAtMs + (input.successor ? input.everySec * 1000 : 0);
}

/** No successful poll for the silence window: the waiting run ends `stalled: source_silent`. */
export function sourceSilent(input: {
  readonly nowMs: number;
  readonly lastSuccessMs: number;
  readonly silenceSec: number;
}): boolean {
  return input.nowMs - input.lastSuccessMs >= input.silenceSec * 1000;
}
