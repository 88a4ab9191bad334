import { access, open, readdir } from "node:fs/promises";
import { join } from "node:path";

/** How much of a transcript's end is searched for its last cost record. */
const TAIL_BYTES = 1024 * 1024;

/**
 * The cumulative cost a session's transcript recorded before this query: the baseline to subtract
 * from the result's `total_cost_usd`, which on a resumed session includes every earlier query of the
 * session. Claude Code appends a `cost-state` record (with `totalCostUSD`) to the transcript
 * `<configDir>/projects/<project>/<sessionId>.jsonl` after each query; the last one within the final
 * megabyte is read. Undefined when there is none: the runtime then prices the usage itself.
 */
export async function readCostBaseline(configDir: string, sessionId: string): Promise<number | undefined> {
  const file = await findTranscript(configDir, sessionId);
  if (file === undefined) return undefined;
  const lines = (await readTail(file)).split("\n").reverse();
  for (const line of lines) {
    if (!line.includes('"cost-state"')) continue;
    const cost = costOf(line);
    if (cost !== undefined) return cost;
  }
  return undefined;
}

function costOf(line: string): number | undefined {
  try {
    const record: unknown = JSON.parse(line);
    if (typeof record !== "object" || record === null) return undefined;
    const { type, totalCostUSD } = record as { type?: unknown; totalCostUSD?: unknown };
    return type === "cost-state" && typeof totalCostUSD === "number" ? totalCostUSD : undefined;
  } catch {
    return undefined;
  }
}

async function findTranscript(configDir: string, sessionId: string): Promise<string | undefined> {
  const projects = join(configDir, "projects");
  let names: string[];
  try {
    names = await readdir(projects);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const candidate = join(projects, name, `${sessionId}.jsonl`);
    try {
      await access(candidate);
      return candidate;
    } catch {
      // not in this project folder
    }
  }
  return undefined;
}

async function readTail(file: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } finally {
    await handle.close();
  }
}
