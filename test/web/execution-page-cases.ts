import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { type JournaledEvent, readSince } from "../../src/journal/index.ts";
import { hankOf, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { assertAccessible, screenshot, serveExecution, text, WAIT_MS } from "./support.ts";

/** The timeline as a reader sees it: each row's codon and status, and each finished iteration. */
async function timelineRows(page: Page): Promise<string[]> {
  const rows: string[] = [];
  for (const item of await page.locator("nav.timeline li").all()) {
    const codon = await item.getAttribute("data-codon");
    rows.push(
      codon === null
        ? `iteration ${await item.getAttribute("data-iteration")}`
        : `${codon}:${await item.getAttribute("data-status")}`,
    );
  }
  return rows;
}

/** The cases of the the execution page, on the browser the entry file shares (pages.test.ts). */
export function executionPageCases(browserOf: () => Browser): void {
  describe("web: the execution page", { timeout: 120_000 }, () => {
    test("follows a live 3-iteration loop to its end, keeps its timeline across a reload, rolls back from the page", async () => {
      const gate = mkdtempSync(join(tmpdir(), "hw-web-gate-"));
      const release = join(gate, "release");
      const hank = hankOf([
        scriptedCodon("plan", "@say planning the work\n@write notes.txt hello", {
          checkpointedFiles: ["**"],
        }),
        scriptedLoop("fix", { type: "iterationLimit", limit: 3 }, [
          scriptedCodon(
            "step",
            `@say working on it\n@append log.txt x\n@usage input=100 output=20\n@run iterations=1 while [ ! -f ${release} ]; do sleep 0.05; done`,
            { checkpointedFiles: ["**"] },
          ),
        ]),
      ]);
      const served = await serveExecution(hank, { git: true, stayOpen: true });
      const page = await browserOf().newPage();
      try {
        await page.goto(served.pageUrl);
        // Live: the second iteration's codon runs (it waits for the release file) and the page follows it.
        await page
          .locator('nav.timeline li[data-codon="step#1"][data-status="running"]')
          .waitFor({ timeout: WAIT_MS });
        await page.locator('section.stream[data-codon="step#1"]').waitFor({ timeout: WAIT_MS });
        const before = await timelineRows(page);
        assert.deepEqual(before.slice(0, 3), ["plan:completed", "step#0:completed", "iteration 0"]);

        await page.reload();
        await page
          .locator('nav.timeline li[data-codon="step#1"][data-status="running"]')
          .waitFor({ timeout: WAIT_MS });
        assert.deepEqual(await timelineRows(page), before, "a reload shows the same timeline");

        writeFileSync(release, "go");
        await page.locator('[data-outcome="completed"]').waitFor({ timeout: WAIT_MS });
        const rows = await timelineRows(page);
        assert.deepEqual(rows, [
          "plan:completed",
          "step#0:completed",
          "iteration 0",
          "step#1:completed",
          "iteration 1",
          "step#2:completed",
          "iteration 2",
        ]);
        const finalRow = await text(page.locator('nav.timeline li[data-iteration="2"]'));
        assert.match(finalRow, /loop ended: iteration_limit/);
        const stepRow = await text(page.locator('nav.timeline li[data-codon="step#2"]'));
        assert.match(stepRow, /scripted · attempt 1 ·.*120 tokens/s);
        assert.match(
          stepRow,
          /codon 4 of 4, iteration 3 of 3 · scripted/,
          "where the codon stands in the run",
        );
        assert.match(stepRow, /ends: stream completed, tools completed, turn completed, codon completed/);
        const usage = readSince(join(served.exec, ".hankweave", "events", "events.jsonl"), 0).events.flatMap(
          (event) => (event.type === "token.usage" ? [event.data.inputTokens + event.data.outputTokens] : []),
        );
        const tokens = usage.reduce((sum, n) => sum + n, 0);
        assert.equal(await text(page.locator('[data-meter="run-tokens"] .meter-text')), String(tokens));
        // The attempt strip: one bar per attempt, coloured by status, with a text alternative.
        const bars = page.locator(".attempt-strip rect.bar");
        const statuses: (string | null)[] = [];
        for (let i = 0; i < (await bars.count()); i++)
          statuses.push(await bars.nth(i).getAttribute("data-status"));
        assert.deepEqual(statuses, ["completed", "completed", "completed", "completed"]);
        const strip = page.locator(".attempt-strip svg[role=img]").first();
        assert.match(
          (await strip.getAttribute("aria-label")) ?? "",
          /^Timeline of 4 codon attempts over .*: 4 completed, 0 failed/,
        );
        assert.equal(
          await page.locator(".attempt-strip svg.tokens-line").getAttribute("aria-label"),
          `Tokens over time: ${tokens} in and out.`,
          "the tokens line ends at the run's total",
        );
        await strip.focus();
        assert.equal(
          await page.locator(".attempt-strip svg[role=img]:focus").count(),
          1,
          "keyboard reachable",
        );

        // Rollback: choose step#0's checkpoint, confirm, and the execution lands on it.
        const row = page.locator('section.checkpoints li[data-codon="step#0"]');
        await row.waitFor({ timeout: WAIT_MS });
        assert.match(await text(row), /\+1 ~0 −0 files/);
        await screenshot(page, "execution-page");
        await assertAccessible(page, ["banner", "main", "navigation", "complementary"]);
        const sha = (await row.getAttribute("data-checkpoint")) ?? "";
        await row.getByRole("button", { name: /^Roll back to step#0/ }).click();
        await row.getByRole("button", { name: /^Confirm rollback to step#0/ }).click();
        await page.locator('[data-rollback="completed"]').waitFor({ timeout: WAIT_MS });
        const journal = readSince(join(served.exec, ".hankweave", "events", "events.jsonl"), 0).events;
        const done = journal.find((event) => event.type === "rollback.completed");
        assert.ok(done !== undefined && done.type === "rollback.completed");
        assert.equal(done.data.codonId, "step#0");
        assert.equal(done.data.checkpoint, sha);
        assert.equal(readFileSync(join(served.exec, "agentRoot", "log.txt"), "utf8"), "x\n");
      } finally {
        await page.close();
        await served.remove();
        rmSync(gate, { recursive: true, force: true });
      }
    });

    test("opens a long run at its newest page of history and loads earlier events on request", async () => {
      const hank = hankOf([
        scriptedLoop("many", { type: "iterationLimit", limit: 120 }, [
          scriptedCodon("step", "@say working on it\n@usage input=10 output=5"),
        ]),
      ]);
      const served = await serveExecution(hank, { stayOpen: true });
      const page = await browserOf().newPage();
      try {
        // The page opens on a finished run, so its history is longer than one page: opened while the
        // run was young, it would get the whole history and follow the rest live (nothing to page).
        await runEnded(served.journal);
        await page.goto(served.pageUrl);
        await page.locator('[data-outcome="completed"]').waitFor({ timeout: WAIT_MS });
        const journal = readSince(join(served.exec, ".hankweave", "events", "events.jsonl"), 0).events;
        await page.locator(`.connection:has-text("${journal.length} events")`).waitFor({ timeout: WAIT_MS });
        // The run's figures are the whole run's; the timeline holds only the newest codons.
        const newest = await timelineRows(page);
        assert.ok(newest.length > 0 && !newest.includes("step#0:completed"));
        assert.ok(newest.includes("step#119:completed"));
        assert.equal(await page.getByRole("button", { name: "Load earlier events" }).count(), 1);
        // "Load earlier events" asks the server; "Show … earlier" shows rows already loaded.
        const earlier = page.locator("nav.timeline button.show-earlier");
        while ((await earlier.count()) > 0) {
          const shown = (await timelineRows(page)).length;
          await earlier.first().click();
          const grown = `document.querySelectorAll("nav.timeline li").length > ${shown}`;
          await page.waitForFunction(grown, null, { timeout: WAIT_MS });
        }
        const all = await timelineRows(page);
        assert.equal(all[0], "step#0:completed");
        assert.equal(all.filter((row) => row.endsWith(":completed")).length, 120);
        assert.equal(all.filter((row) => row.startsWith("iteration")).length, 120);
      } finally {
        await page.close();
        await served.remove();
      }
    });
  });
}

/** Resolves once the journal holds the run's end; a run that never ends fails the test at `WAIT_MS`. */
async function runEnded(journal: () => readonly JournaledEvent[]): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  const ended = (event: JournaledEvent): boolean =>
    event.type === "state.transition" &&
    (event.data.transitionType === "RunCompleted" || event.data.transitionType === "RunFailed");
  while (!journal().some(ended)) {
    if (Date.now() > deadline) throw new Error("the run did not end");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
