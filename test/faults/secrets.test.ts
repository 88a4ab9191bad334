import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { runExecution } from "../../src/runner/index.ts";
import { agentFile, runOptions } from "../runner/support.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: known secret values are masked in every journaled string and every broadcast, by value. The
 * run's environment holds a token (secret by its name), the agent gets a password through a
 * `HANKWEAVE_` variable and the codon's `env`, and the prompt carries an API key (secret by its shape).
 * The agent echoes them all. The journal, `state.json` and the broadcast events must hold `****`
 * instead; the files the agent wrote (and so its checkpoints) are its own and keep what it wrote.
 */

const SECRETS = {
  token: "dtok-1234567890abcdef",
  passThrough: "hunter2hunter2",
  codonPassword: "pa55word-xyz-987",
  promptKey: "sk-ant-abcdefghijklmnop123",
};

describe("known secret values", () => {
  const box = sandbox("secrets");
  after(() => box.remove());

  it("are masked in the journal, state.json and the broadcast, by value", async () => {
    const hank = writeHank(join(box.root, "hank"), [
      codon(
        "a",
        [
          `@say my key is ${SECRETS.promptKey}`,
          '@run echo "$DEPLOY_TOKEN $SERVICE_PASSWORD $DB_PASSWORD"',
          '@run echo "$DB_PASSWORD" > kept.txt',
        ].join("\n"),
        { env: { DB_PASSWORD: SECRETS.codonPassword } },
      ),
    ]);
    const broadcast: JournaledEvent[] = [];
    const base = runOptions(box, hank, { execution: join(box.root, "exec") });
    const result = await runExecution({
      ...base,
      env: { ...base.env, DEPLOY_TOKEN: SECRETS.token, HANKWEAVE_SERVICE_PASSWORD: SECRETS.passThrough },
      listeners: [(event) => broadcast.push(event)],
    });
    assert.equal(result.kind === "ran" && result.outcome, "completed", JSON.stringify(result).slice(0, 300));
    if (result.kind !== "ran") return;
    const places = {
      journal: readFileSync(result.layout.eventsPath, "utf8"),
      state: readFileSync(result.layout.statePath, "utf8"),
      broadcast: JSON.stringify(broadcast),
    };
    for (const [where, text] of Object.entries(places)) {
      for (const [name, secret] of Object.entries(SECRETS)) {
        assert.equal(text.includes(secret), false, `${where} holds the ${name}`);
      }
    }
    assert.match(places.journal, /my key is \*\*\*\*/);
    assert.match(places.journal, /\*\*\*\* \*\*\*\* \*\*\*\*/);
    assert.equal(readFileSync(agentFile(result.layout, "kept.txt"), "utf8"), `${SECRETS.codonPassword}\n`);
  });
});
