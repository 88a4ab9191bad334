import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isProcessAlive } from "../../src/workspace/lock/index.ts";
import { type BundledCli, bundleCli } from "../crash/bundled-cli.ts";
import { runAndSignal } from "../crash/crash-driver.ts";
import {
  codon,
  journal,
  onlyExecution,
  payloads,
  type Sandbox,
  sandbox,
  writeHank,
} from "../workspace/support.ts";

/**
 * Item: Ctrl-C, SIGTERM and SIGHUP (a closed terminal) are a user shutdown. The CLI (bundled from the sources) runs a codon whose
 * agent starts a shell command in its own process group and waits; the CLI's process group is then
 * signalled, as a terminal does. The run must end `aborted` with exit code 0, no failure reason
 * invented and no fatal error, the agent's process group ended and the lock released. A second Ctrl-C
 * forces: even a command that ignores SIGTERM is gone at once, and the end is still journaled.
 */

/** The pid the agent's command wrote, once it has started. */
function agentPid(box: Sandbox): number | undefined {
  if (!existsSync(box.executions)) return undefined;
  for (const name of readdirSync(box.executions)) {
    const path = join(box.executions, name, "agentRoot", "agent.pid");
    if (existsSync(path)) return Number.parseInt(readFileSync(path, "utf8"), 10) || undefined;
  }
  return undefined;
}

interface Case {
  readonly name: string;
  readonly command: string;
  readonly signal: "SIGINT" | "SIGTERM" | "SIGHUP";
  readonly secondAfterMs?: number;
}

const CASES: readonly Case[] = [
  { name: "SIGTERM stops the run", command: "echo $$ > agent.pid; sleep 30", signal: "SIGTERM" },
  // A closed terminal: the agent runs in a group of its own, which the hangup does not reach.
  {
    name: "SIGHUP stops the run as SIGTERM does",
    command: "echo $$ > agent.pid; sleep 30",
    signal: "SIGHUP",
  },
  {
    name: "a second Ctrl-C forces, even past a command that ignores SIGTERM",
    command: "trap '' TERM; echo $$ > agent.pid; sleep 30",
    signal: "SIGINT",
    secondAfterMs: 100,
  },
];

describe("signals are a user shutdown", () => {
  let bin: BundledCli | undefined;
  before(async () => {
    bin = await bundleCli();
  });
  after(() => bin?.remove());

  for (const { name, command, signal, secondAfterMs } of CASES) {
    it(name, async () => {
      const box = sandbox("signals");
      try {
        const hank = writeHank(join(box.root, "hank"), [
          codon("a", "@append trail.txt a"),
          codon("b", `@run ${command}\n@append trail.txt b`),
        ]);
        const run = await runAndSignal(
          {
            bin: bin?.path ?? "",
            baseDir: box.executions,
            env: { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: box.executions },
          },
          [hank, "--headless"],
          {
            when: () => false,
            seen: () => agentPid(box) !== undefined,
            signal,
            ...(secondAfterMs !== undefined && { secondAfterMs }),
          },
        );
        assert.equal(run.result.code, 0, run.result.stderr);
        assert.match(run.result.stderr, new RegExp(`${signal}: stopping the run`));
        const layout = onlyExecution(box);
        assert.equal(isProcessAlive(agentPid(box) ?? 0), false, "the agent's command is gone");
        assert.equal(existsSync(layout.lockPath), false, "the lock is released");
        const events = await journal(layout);
        assert.deepEqual(
          payloads(events, "codon.completed").map((c) => [
            c.codonId,
            c.success,
            c.endReasons?.codon,
            c.failureReason,
          ]),
          [
            ["a", true, "completed", undefined],
            ["b", false, "aborted", undefined],
          ],
        );
        const ends = payloads(events, "state.transition").filter((t) => t.transitionType === "RunFailed");
        assert.deepEqual(
          ends.map((t) => t.transition.data),
          [{ reason: "aborted", message: "Run cancelled" }],
        );
        assert.deepEqual(
          payloads(events, "error").filter((e) => e.fatal),
          [],
          "no fatal error for a user's stop",
        );
      } finally {
        box.remove();
      }
    });
  }
});
