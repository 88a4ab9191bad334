import assert from "node:assert/strict";
import { hankOf, scriptedCodon } from "../hank-builders.ts";
import { attempts, fileText, runScenario, type Scenario } from "./scenario-kit.ts";

const COMPLETED_LAYERS = {
  stream: "completed",
  toolBatch: "completed",
  turn: "completed",
  codon: "completed",
};

/** A session that writes a file and runs a command in the workspace, for real. */
export const writeAndRun: Scenario = {
  name: "write-and-run",
  title: "a session writes a file and runs a command in the workspace",
  run: (context) =>
    runScenario(
      context,
      hankOf([scriptedCodon("work", "Write the greeting to notes/hello.txt, then copy it to copied.txt.")]),
      [
        {
          kind: "work",
          steps: [
            { kind: "write", path: "notes/hello.txt", content: "hello from the agent\n" },
            { kind: "run", command: "cp notes/hello.txt copied.txt" },
          ],
          text: "Wrote and copied the greeting.",
        },
      ],
      (run) => {
        assert.equal(run.result.status, "completed", run.result.message);
        assert.deepEqual(attempts(run), [{ codonId: "work", attempt: 1, success: true }]);
        assert.deepEqual(run.data("codon.completed")[0]?.endReasons, COMPLETED_LAYERS);
        assert.equal(fileText(run, "notes/hello.txt"), "hello from the agent\n");
        assert.equal(fileText(run, "copied.txt"), "hello from the agent\n");
        const toolUses = run.data("assistant.action").filter((a) => a.action === "tool_use");
        assert.equal(toolUses.length, 2);
        assert.deepEqual(
          run.data("tool.result").map((r) => r.isError),
          [false, false],
        );
        const started = run.data("codon.started");
        assert.equal(started.length, 1);
        assert.ok((started[0]?.sessionId ?? "").length > 0, "a session id");
        assert.ok(run.data("token.usage").length > 0, "usage reported");
        if (context.setup.modelServer) assert.equal(context.director.requestsOf(0).length, 3);
      },
    ),
};

const FIRST_PROMPT = "Start the log in log.txt.";
const SECOND_PROMPT = "Add a second line to the log.";

/** `continue-previous` resumes the previous codon's session: same id, and the model sees the history. */
export const continuePrevious: Scenario = {
  name: "continue-previous",
  title: "continue-previous resumes the previous codon's session",
  run: (context) =>
    runScenario(
      context,
      hankOf([
        scriptedCodon("first", FIRST_PROMPT),
        scriptedCodon("second", SECOND_PROMPT, { continuationMode: "continue-previous" }),
      ]),
      [
        { kind: "work", steps: [{ kind: "write", path: "log.txt", content: "one\n" }], text: "Started." },
        { kind: "work", steps: [{ kind: "run", command: "echo two >> log.txt" }], text: "Added." },
      ],
      (run) => {
        assert.equal(run.result.status, "completed", run.result.message);
        assert.deepEqual(attempts(run), [
          { codonId: "first", attempt: 1, success: true },
          { codonId: "second", attempt: 1, success: true },
        ]);
        const [first, second] = run.data("codon.started");
        assert.ok(first !== undefined && second !== undefined, "both codons started");
        assert.equal(first.previousSessionId, undefined);
        assert.equal(second.previousSessionId, first.sessionId);
        assert.equal(second.sessionId, first.sessionId);
        assert.equal(fileText(run, "log.txt"), "one\ntwo\n");
        if (!context.setup.modelServer) return;
        const resumed = context.director.requestsOf(1)[0];
        assert.ok(resumed !== undefined, "the resumed session made a request");
        assert.equal(resumed.prompts.length, 2);
        assert.ok(resumed.prompts[0]?.includes(FIRST_PROMPT), "the first prompt is in the history");
        assert.ok(resumed.prompts[1]?.includes(SECOND_PROMPT), "the second prompt comes last");
        assert.ok(resumed.totalToolResults >= 1, "the first session's tool result is in the history");
      },
    ),
};
