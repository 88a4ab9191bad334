import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SessionRequest } from "../harness.ts";
import { resolveConfigDir } from "./config-dir.ts";

const request = (cwd: string, env: Record<string, string> = {}): SessionRequest => ({
  codonId: "a",
  prompt: "p",
  model: { requested: "sonnet", id: "claude-sonnet-4-5", provider: "anthropic" },
  cwd,
  env,
  autoCompact: false,
  attempt: 1,
  extension: 0,
  signal: new AbortController().signal,
});

describe("resolveConfigDir", () => {
  const dirs = new Set(["/runs/x/.hankweave"]);
  const isDirectory = (path: string) => dirs.has(path);
  const base = { configDir: undefined, fallbackConfigDir: "/tmp/hankweave-claude", isDirectory };

  it("uses the execution's state folder when the cwd is its agentRoot", () => {
    assert.equal(
      resolveConfigDir({ ...base, request: request("/runs/x/agentRoot") }),
      "/runs/x/.hankweave/claude",
    );
  });

  it("falls back outside an execution", () => {
    assert.equal(
      resolveConfigDir({ ...base, request: request("/home/me/project") }),
      "/tmp/hankweave-claude",
    );
    assert.equal(
      resolveConfigDir({ ...base, request: request("/runs/y/agentRoot") }),
      "/tmp/hankweave-claude",
    );
  });

  it("prefers CLAUDE_CONFIG_DIR from the agent's environment, then the harness option", () => {
    const option = { ...base, configDir: () => "/from/option" };
    assert.equal(resolveConfigDir({ ...option, request: request("/runs/x/agentRoot") }), "/from/option");
    const env = { CLAUDE_CONFIG_DIR: "/home/me/.claude" };
    assert.equal(
      resolveConfigDir({ ...option, request: request("/runs/x/agentRoot", env) }),
      "/home/me/.claude",
    );
  });
});
