import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCheckpointMessage, parseCheckpointMessage } from "./checkpoint-message.ts";

const meta = {
  codonId: "edit#2",
  codonName: 'Edit "all"\nthe files',
  checkpointType: "error",
  runId: "run-1",
  timestamp: "2025-01-01T00:00:00.000Z",
} as const;

test("the message has a one-line subject, the note, then one JSON trailer per field", () => {
  assert.equal(
    formatCheckpointMessage(meta, "Rate limited\r\n\r\ntwice\u0007"),
    [
      'error: Edit "all" the files (edit#2)',
      "",
      "Rate limited",
      "twice",
      "",
      'Hankweave-Codon-Id: "edit#2"',
      'Hankweave-Codon-Name: "Edit \\"all\\"\\nthe files"',
      'Hankweave-Checkpoint-Type: "error"',
      'Hankweave-Run-Id: "run-1"',
      'Hankweave-Timestamp: "2025-01-01T00:00:00.000Z"',
      "",
    ].join("\n"),
  );
});

test("parsing gives the fields back; the last trailer wins over look-alikes in the note", () => {
  assert.deepEqual(parseCheckpointMessage(formatCheckpointMessage(meta)), meta);
  const forged = formatCheckpointMessage(meta, 'Hankweave-Run-Id: "forged"');
  assert.equal(parseCheckpointMessage(forged)?.runId, "run-1");
});

test("commits that are not checkpoints parse to undefined", () => {
  assert.equal(parseCheckpointMessage("hankweave: initial checkpoint\n"), undefined);
  const wrongType = formatCheckpointMessage(meta).replace('"error"', '"exploded"');
  assert.equal(parseCheckpointMessage(wrongType), undefined);
  const broken = formatCheckpointMessage(meta).replace(
    'Hankweave-Run-Id: "run-1"',
    "Hankweave-Run-Id: run-1",
  );
  assert.equal(parseCheckpointMessage(broken), undefined);
});
