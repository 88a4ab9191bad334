import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { systemClock } from "../../../engine/index.ts";
import {
  createCommandHarness,
  DEFAULT_KILL_GRACE_MS,
  type NamedCommand,
} from "../../../harness/command/index.ts";
import { startFakeOpenAI } from "../../fake-providers/index.ts";
import type { ConformanceSetup } from "../conformance-types.ts";
import { PI_FAKE_MODEL } from "./pi-target.ts";
import { baseAgentEnv } from "./target-env.ts";

/** The pi CLI (`node_modules/.bin/pi`): `cli.js` beside the package's entry; undefined when not installed. */
export function findPiCli(): string | undefined {
  try {
    const cli = join(dirname(fileURLToPath(import.meta.resolve("@mariozechner/pi-coding-agent"))), "cli.js");
    return existsSync(cli) ? cli : undefined;
  } catch {
    return undefined;
  }
}

/** pi loads nothing of the machine's own: no extensions, skills, templates, themes or context files. */
const ISOLATION = [
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
];

/**
 * The command harness driving the real pi CLI (`pi --mode json -p`) against the fake OpenAI server.
 * pi's settings switch off its own retries (agent and provider client) and compaction, so each fault
 * and overflow reaches the runtime. The CLI needs 1.1 to 2.8 s to boot and print its session, and more
 * than 8 s once in CI (two cores, three test files at once, Chromium among them); the idle timeout runs
 * from the session's start, so the stall scenario uses 15 s to leave the retried attempt room to boot.
 *
 * Limitation: pi runs the tool calls of a response cut at max tokens, completing the cut arguments,
 * and an agent CLI gives the harness no way to stop a call before it runs.
 */
export function commandConformanceSetup(piCli: string): ConformanceSetup {
  return {
    model: "command/pi",
    modelServer: true,
    idleTimeoutSeconds: 15,
    stoppedExitStatus: { type: "killed", signal: "SIGTERM" },
    limitations: {
      "max-tokens":
        "the pi CLI runs a tool call cut at max tokens with its arguments completed; a CLI agent cannot be stopped before a call",
    },
    start: async (director) => {
      const fake = await startFakeOpenAI(director.fakeScript);
      const agentDir = mkdtempSync(join(tmpdir(), "hankweave-pi-cli-"));
      writePiAgentDir(agentDir, `${fake.baseUrl}/v1`);
      return {
        env: baseAgentEnv(),
        createHarness: (stateDir) =>
          createCommandHarness(piCommand(piCli, agentDir, join(stateDir, "pi-sessions")), {
            clock: systemClock(),
            newId: randomUUID,
            tempDir: stateDir,
          }),
        close: async () => {
          await fake.close();
          rmSync(agentDir, { recursive: true, force: true });
        },
      };
    },
  };
}

/**
 * Writes pi's agent directory (`PI_CODING_AGENT_DIR`): provider `fake` at `baseUrl` in models.json, and
 * settings without retries, compaction or telemetry.
 */
export function writePiAgentDir(dir: string, baseUrl: string): void {
  mkdirSync(dir, { recursive: true });
  const provider = { baseUrl, api: "openai-completions", apiKey: "conformance-key", models: [PI_FAKE_MODEL] };
  writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { fake: provider } }));
  const settings = {
    retry: { enabled: false, provider: { maxRetries: 0 } },
    compaction: { enabled: false },
    enableInstallTelemetry: false,
  };
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
}

/** The command entry a user would write in hankweave.commands.json for pi. */
export function piCommand(piCli: string, agentDir: string, sessionDir: string): NamedCommand {
  const common = ["--mode", "json", "-p", "--provider", "fake", "--model", "{model}"];
  const tools = ["--tools", "read,bash,edit,write", "--session-dir", sessionDir, ...ISOLATION];
  return {
    name: "pi",
    command: process.execPath,
    args: [piCli, ...common, ...tools, "{prompt}"],
    resumeArgs: [piCli, ...common, ...tools, "--session", "{sessionId}", "{prompt}"],
    stdin: false,
    output: "pi-json",
    model: PI_FAKE_MODEL.id,
    env: { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" },
    killGraceMs: DEFAULT_KILL_GRACE_MS,
  };
}
