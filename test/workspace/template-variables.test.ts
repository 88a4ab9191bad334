import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { codon, hankweave, journal, onlyExecution, payloads, sandbox, writeHank } from "./support.ts";

/**
 * Scenario 19: the agent receives its prompt with `<%AGENT_ROOT%>` and its aliases resolved to the
 * absolute agentRoot, `<%DATA_DIR%>` to the data link inside it, and every HTML comment removed, from a
 * prompt file and from inline prompt text alike. The scripted agent writes what it received to files.
 */

const PROMPT = [
  "<!-- A note for the hank's authors, never for the agent:",
  "@write leaked.txt the comment reached the agent",
  "-->",
  "@write paths.txt agent=<%AGENT_ROOT%> project=<%PROJECT_DIR%> exec=<%EXECUTION_DIR%> data=<%DATA_DIR%>",
  "@write inline.txt before<!-- hidden -->after",
  "Working in <%AGENT_ROOT%>.<!-- not for the agent -->",
].join("\n");

describe("template variables and comments in prompts (scenario 19)", () => {
  const sb = sandbox("template");
  after(() => sb.remove());

  it("resolves the variables to absolute paths and strips comments, from files and inline text", async () => {
    const hank = writeHank(
      join(sb.root, "hank"),
      [
        codon("from-file", "", { promptText: undefined, promptFile: "prompts/main.md" }),
        codon(
          "inline",
          PROMPT.replaceAll("paths.txt", "inline-paths.txt").replaceAll("inline.txt", "inline-2.txt"),
        ),
      ],
      { files: { "prompts/main.md": `${PROMPT}\n` } },
    );
    const ran = await hankweave(sb, [hank, "--headless"]);
    assert.equal(ran.code, 0, ran.stderr);
    const { agentRoot } = onlyExecution(sb);
    const paths = `agent=${agentRoot} project=${agentRoot} exec=${agentRoot} data=${join(agentRoot, "read_only_data_source")}`;
    assert.ok(agentRoot.startsWith("/"));
    assert.equal(readFileSync(join(agentRoot, "paths.txt"), "utf8"), paths);
    assert.equal(readFileSync(join(agentRoot, "inline-paths.txt"), "utf8"), paths);
    assert.equal(readFileSync(join(agentRoot, "inline.txt"), "utf8"), "beforeafter");
    assert.equal(readFileSync(join(agentRoot, "inline-2.txt"), "utf8"), "beforeafter");
    assert.equal(existsSync(join(agentRoot, "leaked.txt")), false, "the commented-out directive never ran");
    const events = await journal(onlyExecution(sb));
    assert.deepEqual(
      payloads(events, "assistant.action")
        .filter((a) => a.action === "message")
        .map((a) => [a.codonId, a.content]),
      [
        ["from-file", `Working in ${agentRoot}.`],
        ["inline", `Working in ${agentRoot}.`],
      ],
    );
  });
});
