import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readCostBaseline } from "./cost-baseline.ts";

describe("readCostBaseline", () => {
  it("reads the last cost record of the session's transcript, in any project folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hankweave-claude-cost-"));
    try {
      mkdirSync(join(dir, "projects", "-tmp-a"), { recursive: true });
      const lines = [
        { type: "user", message: { content: "cost-state" } },
        { type: "cost-state", sessionId: "s-1", totalCostUSD: 0.0045 },
        { type: "assistant" },
        { type: "cost-state", sessionId: "s-1", totalCostUSD: 0.009 },
        { type: "last-prompt" },
      ];
      writeFileSync(
        join(dir, "projects", "-tmp-a", "s-1.jsonl"),
        `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
      );
      writeFileSync(join(dir, "projects", "-tmp-a", "s-2.jsonl"), `${JSON.stringify({ type: "user" })}\n`);
      assert.equal(await readCostBaseline(dir, "s-1"), 0.009);
      assert.equal(await readCostBaseline(dir, "s-2"), undefined);
      assert.equal(await readCostBaseline(dir, "s-3"), undefined);
      assert.equal(await readCostBaseline(join(dir, "missing"), "s-1"), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
