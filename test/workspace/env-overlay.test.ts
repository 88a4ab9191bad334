import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { codon, hankweave, onlyExecution, sandbox, writeHank } from "./support.ts";

/**
 * Scenario 18: `HANKWEAVE_<NAME>=v` in the runtime's environment sets `<NAME>=v` for the agent, its rig
 * commands and its beforeCopy commands; the value `unset` removes `<NAME>`; the codon's `env` comes
 * last; and `requirements.env` counts `HANKWEAVE_<NAME>` as `<NAME>`.
 */

/** A shell `echo` argument: `FOO=${FOO-absent} X=${X-absent} ...`. */
const SHOW = ["FOO", "X", "NAME", "LEVEL"].map((name) => `${name}=\${${name}-absent}`).join(" ");

describe("environment overlay (scenario 18)", { concurrency: true }, () => {
  const sb = sandbox("env");
  after(() => sb.remove());
  const hank = writeHank(
    join(sb.root, "hank"),
    [
      codon("a", `@run echo "${SHOW}" > agent-env.txt`, {
        env: { LEVEL: "codon" },
        rigSetup: [{ type: "command", command: { run: `echo "${SHOW}" > rig-env.txt` } }],
        outputFiles: [
          {
            copy: ["agent-env.txt"],
            beforeCopy: [
              {
                type: "command",
                command: { run: `echo "${SHOW}" > before-env.txt`, workingDirectory: "project" },
              },
            ],
          },
        ],
      }),
    ],
    { root: { requirements: { env: ["NAME"] } } },
  );

  it("passes HANKWEAVE_ variables through, removes `unset` ones, and satisfies requirements.env", async () => {
    const ran = await hankweave(sb, [hank, "--headless", "-o", join(sb.root, "out")], {
      HANKWEAVE_FOO: "bar",
      X: "present",
      HANKWEAVE_X: "unset",
      HANKWEAVE_NAME: "hank",
      NAME: undefined,
      FOO: undefined,
      LEVEL: undefined,
    });
    assert.equal(ran.code, 0, ran.stderr);
    const { agentRoot } = onlyExecution(sb);
    const expected = "FOO=bar X=absent NAME=hank LEVEL=codon\n";
    assert.equal(readFileSync(join(agentRoot, "agent-env.txt"), "utf8"), expected, "the agent's commands");
    assert.equal(readFileSync(join(agentRoot, "rig-env.txt"), "utf8"), expected, "rig commands");
    assert.equal(readFileSync(join(agentRoot, "before-env.txt"), "utf8"), expected, "beforeCopy commands");
  });

  it("refuses to start when a required variable is missing", async () => {
    const other = sandbox("env-missing");
    try {
      const ran = await hankweave(other, [hank, "--headless"], { NAME: undefined, HANKWEAVE_NAME: "unset" });
      assert.equal(ran.code, 1, ran.stderr);
      assert.match(ran.stderr, /Missing required environment variables: NAME/);
      assert.equal(existsSync(other.executions), false, "nothing was created");
    } finally {
      other.remove();
    }
  });
});
