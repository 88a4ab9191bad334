import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { systemClock } from "../../util/clock.ts";
import type { PinnedContract } from "../model/contract.ts";
import { runBody } from "./run-body.ts";

/**
 * The body of a sandboxed generation, run as its own process inside bubblewrap: the parent writes one
 * JSON line (the request) on stdin, then `{"stop": true}` to stop it. This process answers with JSON
 * lines on stdout: `{"activity": "started" | "ended"}` as codons start and end (the inactivity
 * clock's nodes), then `{"report": ...}`, the body's report.
 */
export interface ChildBodyRequest {
  readonly contract: PinnedContract;
  readonly runDir: string;
  readonly generation: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Tokens this generation may spend before its budget is exceeded; null: no token budget. */
  readonly tokenAllowance: number | null;
}

const emit = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done === true) throw new Error("body-child: no request on stdin");
  const request = JSON.parse(first.value) as ChildBodyRequest;
  const controller = new AbortController();
  process.on("SIGTERM", () => controller.abort("terminated"));
  void (async () => {
    for (let line = await lines.next(); line.done !== true; line = await lines.next())
      if ((JSON.parse(line.value) as { stop?: boolean }).stop === true) controller.abort("stopped");
  })();
  const allowance = request.tokenAllowance;
  const report = await runBody({
    contract: request.contract,
    runDir: request.runDir,
    generation: request.generation,
    env: request.env,
    clock: systemClock(),
    signal: controller.signal,
    newId: () => randomUUID().slice(0, 8),
    ...(allowance !== null && { overBudget: (tokens: number) => tokens > allowance }),
    activity: { started: () => emit({ activity: "started" }), ended: () => emit({ activity: "ended" }) },
  });
  emit({ report });
  process.exit(0);
}

await main();
