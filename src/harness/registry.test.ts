import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { systemClock } from "../util/clock.ts";
import { parseCommandConfig } from "./command/index.ts";
import type { HarnessContext } from "./descriptor.ts";
import type { Harness, SessionModel } from "./harness.ts";
import { createHarnessRegistry, harnessFactories } from "./registry.ts";
import { scriptedDescriptor } from "./scripted/descriptor.ts";

const model = (requested: string, provider: string, id = requested): SessionModel => ({
  requested,
  id,
  provider,
});

function fakeHarness(name: string): Harness {
  return {
    name,
    capabilities: { resume: false, reportsCost: false, compaction: false },
    start: () => {
      throw new Error("not started in these tests");
    },
  };
}

/** A factory that counts how often it built. */
function counting(name: string): { calls: number; build: () => Harness } {
  const counter = {
    calls: 0,
    build: () => {
      counter.calls++;
      return fakeHarness(name);
    },
  };
  return counter;
}

describe("createHarnessRegistry", () => {
  it("builds a harness only when a model first needs it, then reuses it", () => {
    const scripted = counting("scripted");
    const claude = counting("claude");
    const registry = createHarnessRegistry({ scripted: scripted.build, claude: claude.build });
    assert.equal(scripted.calls + claude.calls, 0);
    const first = registry.forModel(model("scripted", "scripted"));
    const again = registry.forModel(model("scripted/fail", "scripted", "fail"));
    assert.equal(first, again);
    assert.equal(first.name, "scripted");
    assert.deepEqual([scripted.calls, claude.calls], [1, 0]);
  });

  it("routes by id prefix before provider, and fills in the descriptor's idle timeout", () => {
    const registry = createHarnessRegistry({
      claude: () => fakeHarness("claude"),
      pi: () => fakeHarness("pi"),
    });
    const claude = registry.forModel(model("sonnet", "anthropic", "claude-sonnet-4-5"));
    const viaPi = registry.forModel(
      model("pi/anthropic/claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5"),
    );
    const openai = registry.forModel(model("gpt-5", "openai"));
    assert.deepEqual(
      [claude, viaPi, openai].map((h) => [h.name, h.defaultIdleTimeoutSeconds]),
      [
        ["claude", 180],
        ["pi", 120],
        ["pi", 120],
      ],
    );
  });

  it("keeps a harness's own idle timeout", () => {
    const own = { ...fakeHarness("scripted"), defaultIdleTimeoutSeconds: 5 };
    const registry = createHarnessRegistry({ scripted: () => own });
    assert.equal(registry.forModel(model("scripted", "scripted")), own);
  });

  it("builds one command harness per configured command", () => {
    const built: string[] = [];
    const registry = createHarnessRegistry({
      command: (m) => {
        built.push(m.requested);
        return fakeHarness(m.requested);
      },
    });
    registry.forModel(model("command/a", "command", "a"));
    registry.forModel(model("command/a/m1", "command", "a/m1"));
    registry.forModel(model("command/b", "command", "b"));
    assert.deepEqual(built, ["command/a", "command/b"]);
  });

  it("says clearly when no registered harness runs a model", () => {
    const registry = createHarnessRegistry({ scripted: () => fakeHarness("scripted") }, [scriptedDescriptor]);
    assert.throws(() => registry.forModel(model("gpt-5", "openai")), {
      message: "No harness runs model 'gpt-5' (provider 'openai'); registered harnesses: scripted.",
    });
  });

  it("says clearly when a kind has no factory, or its factory has no harness for the model", () => {
    const registry = createHarnessRegistry({ command: () => ({ missing: "No such command." }) });
    assert.throws(() => registry.forModel(model("haiku", "anthropic")), {
      message:
        "The Claude harness is not available in this build of hankweave. Run with -m scripted for a dry run.",
    });
    assert.throws(() => registry.forModel(model("command/x", "command", "x")), {
      message: "No such command.",
    });
  });
});

describe("harnessFactories", () => {
  const withContext = (run: (context: HarnessContext) => void): void => {
    const stateDir = mkdtempSync(join(tmpdir(), "hankweave-registry-"));
    try {
      run({ clock: systemClock(), stateDir, tempDir: stateDir, newId: () => "id" });
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  };

  it("builds each built-in harness from the run's context", () => {
    withContext((context) => {
      const registry = createHarnessRegistry(harnessFactories(context));
      const names = [
        model("scripted", "scripted"),
        model("haiku", "anthropic", "claude-haiku-4-5"),
        model("gpt-5", "openai"),
      ].map((m) => registry.forModel(m).name);
      assert.deepEqual(names, ["scripted", "claude", "pi"]);
    });
  });

  it("refuses command models without a commands file, and names the configured ones otherwise", () => {
    withContext((context) => {
      const none = createHarnessRegistry(harnessFactories(context));
      assert.throws(() => none.forModel(model("command/x", "command", "x")), /hankweave\.commands\.json/);
      const parsed = parseCommandConfig({ commands: { echo: { command: "echo", args: ["{prompt}"] } } });
      assert.ok(parsed.ok);
      const some = createHarnessRegistry(harnessFactories({ ...context, commands: parsed.config }));
      assert.equal(some.forModel(model("command/echo", "command", "echo")).name, "command/echo");
      assert.throws(() => some.forModel(model("command/ech", "command", "ech")), /configured: echo/);
    });
  });
});
