import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { LiveExecution, setUpAccess, startServer } from "../../src/server/index.ts";
import { hankOf, scriptedCodon } from "../../src/testing/index.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { serveExecution, text, WAIT_MS, webAssets } from "./support.ts";

/**
 * `hankweave view`'s page: a finished execution served read-only from its journal tells its whole
 * story to the end (never "Running"), lists its checkpoints, and offers no rollback.
 */
export function viewPageCases(browserOf: () => Browser): void {
  describe("web: a finished execution, viewed", { timeout: 120_000 }, () => {
    test("shows the final outcome, the counts and the checkpoints, read-only", async () => {
      const served = await serveExecution(
        hankOf([
          scriptedCodon("a", "@write a.txt a", { checkpointedFiles: ["**"] }),
          scriptedCodon("b", "@write b.txt b", { checkpointedFiles: ["**"] }),
        ]),
        { git: true },
      );
      await served.host.ended;
      await served.server.close();
      const access = setUpAccess({});
      if (!access.ok) throw new Error(access.message);
      const host = new LiveExecution({
        execution: { hank: served.exec },
        stayOpen: true,
        view: executionLayout(served.exec),
      });
      const server = await startServer({
        execution: host,
        access: access.policy,
        serverVersion: "0.0.0-test",
        webAssetsDir: await webAssets(),
      });
      const page = await browserOf().newPage();
      try {
        await page.goto(`http://localhost:${server.port}/ui/`);
        await page.locator('[data-outcome="completed"]').waitFor({ timeout: WAIT_MS });
        assert.match(await text(page.locator(".counts")), /2 codon\(s\) completed, 0 failed, 0 ignored/);
        const rows = page.locator("section.checkpoints li[data-codon]");
        await rows.first().waitFor({ timeout: WAIT_MS });
        const codons: (string | null)[] = [];
        for (const row of await rows.all()) codons.push(await row.getAttribute("data-codon"));
        assert.deepEqual(codons, ["a", "b"]);
        assert.equal(
          await page.getByRole("button", { name: /^Roll back/ }).count(),
          0,
          "a viewed execution offers no rollback",
        );
        assert.match(await text(page.locator(".connection")), /read-only/);
      } finally {
        await page.close();
        host.shutdown("client request");
        await server.close();
        await served.remove();
      }
    });
  });
}
