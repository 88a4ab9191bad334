import { type CheckpointType, isCheckpointType } from "../events/checkpoints.ts";

/**
 * The commit message of a checkpoint: a readable subject, an optional note, then one trailer per field
 * with a JSON string value, so any codon name survives the round trip:
 *
 *   completed: Analyze Project (analyze)
 *
 *   Hankweave-Codon-Id: "analyze"
 *   Hankweave-Codon-Name: "Analyze Project"
 *   Hankweave-Checkpoint-Type: "completed"
 *   Hankweave-Run-Id: "run-1"
 *   Hankweave-Timestamp: "2025-01-01T00:01:00.000Z"
 *
 * The history is the index: `list()` reads these back, so nothing else must be kept consistent.
 */
export interface CheckpointMeta {
  readonly codonId: string;
  readonly codonName: string;
  readonly checkpointType: CheckpointType;
  readonly runId: string;
  readonly timestamp: string;
}

const KEYS = {
  codonId: "Hankweave-Codon-Id",
  codonName: "Hankweave-Codon-Name",
  checkpointType: "Hankweave-Checkpoint-Type",
  runId: "Hankweave-Run-Id",
  timestamp: "Hankweave-Timestamp",
} as const satisfies Record<keyof CheckpointMeta, string>;

export function formatCheckpointMessage(meta: CheckpointMeta, note?: string): string {
  const subject = `${meta.checkpointType}: ${oneLine(meta.codonName)} (${oneLine(meta.codonId)})`;
  const body = note === undefined ? "" : cleanNote(note);
  const trailers = (Object.keys(KEYS) as (keyof CheckpointMeta)[]).map(
    (field) => `${KEYS[field]}: ${JSON.stringify(meta[field])}`,
  );
  return [subject, ...(body === "" ? [] : [body]), trailers.join("\n")].join("\n\n").concat("\n");
}

/** The fields of a checkpoint message; undefined for other commits (the initial one). Last trailer wins. */
export function parseCheckpointMessage(message: string): CheckpointMeta | undefined {
  const found = new Map<string, string>();
  for (const line of message.split("\n")) {
    const match = /^(Hankweave-[A-Za-z-]+): (".*")$/.exec(line);
    const value = match?.[2] === undefined ? undefined : parseJsonString(match[2]);
    if (match?.[1] !== undefined && value !== undefined) found.set(match[1], value);
  }
  const codonId = found.get(KEYS.codonId);
  const codonName = found.get(KEYS.codonName);
  const checkpointType = found.get(KEYS.checkpointType);
  const runId = found.get(KEYS.runId);
  const timestamp = found.get(KEYS.timestamp);
  if (codonId === undefined || codonName === undefined || runId === undefined || timestamp === undefined) {
    return undefined;
  }
  if (checkpointType === undefined || !isCheckpointType(checkpointType)) return undefined;
  return { codonId, codonName, checkpointType, runId, timestamp };
}

function parseJsonString(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  return stripControls(text).replace(/\s+/g, " ").trim();
}

/** Control characters dropped (the log parser splits on them), blank-line runs collapsed, one paragraph. */
function cleanNote(note: string): string {
  return stripControls(note.replace(/\r\n?/g, "\n"))
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line !== "")
    .join("\n");
}

function stripControls(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}
