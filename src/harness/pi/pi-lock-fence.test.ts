import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type FakeProviderServer, startFakeOpenAI } from "../../testing/fake-providers/index.ts";
import type { HarnessEvent } from "../harness.ts";
import { createPiHarness } from "./pi-harness.ts";
import { collect, fakeOptions, fakeRequest, type PiWorkspace, piWorkspace } from "./pi-test-support.ts";

/**
 * pi's tools run in the runtime's process: once it may no longer write (it lost the execution's lock
 * while suspended), a write, an edit or a command the model asks for is refused and nothing is written.
 */

describe("pi tools behind the lock fence", () => {
  let workspace: PiWorkspace;
  let server: FakeProviderServer;
  let events: HarnessEvent[] = [];

  before(async () => {
    workspace = piWorkspace();
    server = await startFakeOpenAI([
      { type: "tool", calls: [{ tool: "write", input: { path: "late.txt", content: "late\n" } }] },
      { type: "tool", calls: [{ tool: "bash", input: { command: "echo late > late-bash.txt" } }] },
      { type: "text", text: "Done." },
    ]);
    const harness = createPiHarness({ ...fakeOptions(workspace, server.baseUrl), mayWrite: () => false });
    events = (await collect(harness.start(fakeRequest(workspace, "Write late.txt")))).events;
  });
  after(async () => {
    await server.close();
    workspace.remove();
  });

  it("writes nothing and runs nothing, and says why in the tool results", () => {
    assert.equal(existsSync(join(workspace.cwd, "late.txt")), false);
    assert.equal(existsSync(join(workspace.cwd, "late-bash.txt")), false);
    const results = events.flatMap((e) => (e.type === "tool.result" ? [e] : []));
    assert.deepEqual(
      results.map((r) => [r.toolName, r.isError]),
      [
        ["write", true],
        ["bash", true],
      ],
    );
    for (const result of results) assert.match(result.result, /lost the execution's lock/);
  });
});
