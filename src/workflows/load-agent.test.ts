import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadAgent, parseAgentMarkdown } from "./load-agent.ts";
import { WorkflowArgumentError } from "./workflow-argument-error.ts";

function problems(text: string): string[] {
  try {
    parseAgentMarkdown(text, "agents/coder.md");
  } catch (error) {
    assert.ok(error instanceof WorkflowArgumentError);
    assert.equal(error.code, "invalid-agent-file");
    assert.equal(error.file, "agents/coder.md");
    assert.ok(error.message.startsWith("agent file agents/coder.md:"), error.message);
    return error.issues.map((issue) => issue.argument);
  }
  assert.fail("expected the file to be refused");
}

describe("agents from Markdown files", () => {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-agents-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the front matter as the agent and the body as its instructions", () => {
    const file = join(dir, "reviewer.md");
    writeFileSync(
      file,
      "---\nname: reviewer\nmodel: sonnet\ndescription: Reviews diffs\nidleTimeoutSeconds: 120\nenv:\n  STRICT: yes\ntags: [review]\n---\n\nYou review code.\nSay LGTM when it is right.\n",
    );
    assert.deepEqual(loadAgent(file), {
      name: "reviewer",
      model: "sonnet",
      description: "Reviews diffs",
      idleTimeoutSeconds: 120,
      env: { STRICT: "yes" },
      instructions: "You review code.\nSay LGTM when it is right.",
    });
    assert.equal(loadAgent(file, { model: "scripted" }).model, "scripted");
  });

  it("reads tool settings as Claude Code's agent files spell them: tools and disallowedTools", () => {
    const agent = (front: string) =>
      parseAgentMarkdown(`---\nname: a\nmodel: sonnet\n${front}---\nbody`, "a.md");
    assert.deepEqual(agent("tools: Read, Grep\n").tools, { allow: ["Read", "Grep"] });
    assert.deepEqual(agent("tools: [Read]\ndisallowedTools:\n  - Bash\n").tools, {
      allow: ["Read"],
      deny: ["Bash"],
    });
    assert.deepEqual(agent('tools: ""\n').tools, { allow: [] });
    assert.equal("tools" in agent(""), false);
  });

  it("refuses a file it cannot use, naming the field and the fix", () => {
    assert.deepEqual(problems("You review code."), ["front matter"]);
    assert.deepEqual(problems("---\nname: coder\n---\nbody"), ["front matter.model"]);
    assert.deepEqual(
      problems("---\nname: coder\nmodel: sonnet\npermissionMode: plan\nlifetime: workflow\n---\n"),
      ["front matter field permissionMode", "front matter field lifetime"],
    );
    assert.deepEqual(
      problems("---\nname: coder\nmodel: sonnet\ntools: Read, Read\ndisallowedTools: [Bash, '']\n---\n"),
      ["front matter.tools", "front matter.disallowedTools[1]"],
    );
    assert.deepEqual(problems("---\nname: coder\nmodel: sonnet\ntools:\n  Read: yes\n---\n"), [
      "front matter.tools",
    ]);
    assert.deepEqual(problems("---\nname: coder\nmodel: sonnet\nidleTimeoutSeconds: soon\n---\n"), [
      "front matter.idleTimeoutSeconds",
    ]);
    assert.deepEqual(problems("---\nname: [coder\n---\n"), ["front matter"]);
  });

  it("names a missing file", () => {
    assert.throws(
      () => loadAgent(join(dir, "missing.md")),
      (error: unknown) => {
        assert.ok(error instanceof WorkflowArgumentError);
        assert.match(error.message, /missing\.md: cannot be read/);
        return true;
      },
    );
  });
});
