import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { loadDefinition } from "../../src/loops/definition/load-definition.ts";
import { fixtureDaemon } from "../daemon/fixture-daemon.ts";
import { countGate, INCREMENT, loopFixture } from "../loops/loop-fixture.ts";
import { assertAccessible, screenshot, text, WAIT_MS, webAssets } from "./support.ts";

const HEADER = `owner = "tests"\ncadence = "manual"\nescalation = ["./notify.sh"]\ndata = "./data"\nmodel = "scripted"\n`;

/** Each generation waits for `release-<generation>` beside the definition, so the test sees it live. */
const HELD = (dir: string) =>
  `@run while [ ! -f ${dir}/release-$HANKWEAVE_LOOP_GENERATION ]; do sleep 0.05; done\n@say held`;

async function meterValue(page: Page, meter: string): Promise<number> {
  return Number(await page.locator(`[data-meter="${meter}"] .meter-text`).getAttribute("data-value"));
}

/** The cases of the the Loops pages, on the browser the entry file shares (pages.test.ts). */
export function loopsPagesCases(browserOf: () => Browser): void {
  describe("web: the Loops pages", { timeout: 180_000 }, () => {
    test("catalog, meters moving to needs-approval, approve to done, stalled and exhausted banners", async () => {
      const fx = await loopFixture({ body: [INCREMENT], toml: `[contract]\ngoal = "unused"\n` });
      const hank = (codons: string[]) =>
        JSON.stringify({
          meta: { name: "body", version: "1" },
          hank: codons.map((promptText, i) => ({
            id: `step${i + 1}`,
            name: `step ${i + 1}`,
            model: "scripted",
            continuationMode: "fresh",
            promptText,
            checkpointedFiles: ["**"],
          })),
        });
      fx.write("held/hank.json", hank([HELD(fx.dir), INCREMENT]));
      fx.write("still/hank.json", hank(["@say nothing changes"]));
      fx.write("gates/count.sh", countGate(2), true);
      fx.write("gates/never.sh", "#!/bin/sh\necho not yet\nexit 1\n", true);
      const defs = {
        ship: `id = "ship"\nname = "Ship the counter"\nhank = "./held"\n${HEADER}[contract]\ngoal = "count reaches 2"\ndefinition_of_done = "the count gate passes and a person signs off"\niteration_cap = 5\n[contract.budget]\ntokens = 100000\nwall_clock_sec = 3600\n[[gates]]\nid = "count"\nkind = "command"\nrun = ["./gates/count.sh"]\n[[gates]]\nid = "sign-off"\nkind = "human"\nprompt = "Ship it?"\n`,
        spin: `id = "spin"\nname = "Spin in place"\nhank = "./still"\n${HEADER}[contract]\ngoal = "g"\niteration_cap = 10\n[contract.no_progress]\nwindow = 2\n[[gates]]\nid = "never"\nkind = "command"\nrun = ["./gates/never.sh"]\n`,
        capped: `id = "capped"\nname = "One try only"\nhank = "./still"\n${HEADER}[contract]\ngoal = "g"\niteration_cap = 1\n[[gates]]\nid = "never"\nkind = "command"\nrun = ["./gates/never.sh"]\n`,
      };
      const ids: Record<string, string> = {};
      for (const [name, toml] of Object.entries(defs)) {
        fx.write(`${name}.loop.toml`, toml);
        const loaded = loadDefinition(join(fx.dir, `${name}.loop.toml`));
        if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
        const admitted = await fx.admit({ definition: loaded.definition });
        if (admitted.kind !== "admitted") throw new Error(`${name}: ${admitted.kind}`);
        ids[name] = admitted.run.id;
      }
      const daemon = await fixtureDaemon(fx, { webAssetsDir: await webAssets() });
      const page = await browserOf().newPage();
      const open = (hash: string) => page.goto(`${daemon.url}/ui/?token=${daemon.token}${hash}`);
      try {
        // The catalog lists each Loop with its kind, owner, last outcome and limits (default / ceiling).
        await open("#/");
        await page.locator('tr[data-loop="ship"]').waitFor({ timeout: WAIT_MS });
        const shipRow = await text(page.locator('tr[data-loop="ship"]'));
        assert.match(shipRow, /Ship the counter/);
        assert.match(shipRow, /delivery/);
        assert.match(shipRow, /tests/);
        assert.match(shipRow, /window 3 \/ 30/);
        await page.locator('tr[data-loop="capped"] [data-state="exhausted"]').waitFor({ timeout: WAIT_MS });
        assert.match(await text(page.locator('tr[data-loop="capped"]')), /0% done \(0 of 1\)/);
        // Outcomes over 30 days: one square per ended run, in its state's colour, counted in the label.
        const outcomes = page.locator('tr[data-loop="capped"] svg.outcomes-strip');
        assert.equal(
          await outcomes.getAttribute("aria-label"),
          "Outcomes over the last 30 days: 1 exhausted.",
        );
        assert.equal(await outcomes.locator('rect[data-outcome="exhausted"]').count(), 1);
        await screenshot(page, "loops-catalog");
        await assertAccessible(page, ["banner", "main", "navigation"]);

        // Lint and start from the catalog: the admission table, then a start; the same key again
        // returns the first run.
        await page.getByRole("button", { name: "Lint and start capped" }).click();
        const actions = page.locator('[data-actions="capped"]');
        await actions.locator('table[data-admitted="true"]').waitFor({ timeout: WAIT_MS });
        assert.match(await text(actions.locator("table")), /verifiabilitymet/);
        await actions.getByLabel("Idempotency key").fill("web-test-key");
        await actions.getByRole("button", { name: "Start" }).click();
        await actions.locator('[data-start="started"]').waitFor({ timeout: WAIT_MS });
        const started = await text(actions.locator('[data-start="started"] a'));
        await actions.getByRole("button", { name: "Start" }).click();
        await actions.locator('[data-start="duplicate"]').waitFor({ timeout: WAIT_MS });
        assert.equal(await text(actions.locator('[data-start="duplicate"] a')), started);

        // The run page follows the run: meters move from one generation to the next.
        await page.locator('tr[data-loop="ship"] a').click();
        await page
          .locator(`main[data-run="${ids.ship}"][data-state="running"]`)
          .waitFor({ timeout: WAIT_MS });
        const first = {
          generations: await meterValue(page, "generations"),
          tokens: await meterValue(page, "tokens"),
        };
        fx.write("release-1", "go");
        // The generations meter counts ended generations: generation 1's end moves it while 2 runs.
        await page.locator('li[data-generation="2"]').waitFor({ timeout: WAIT_MS });
        await page
          .locator('[data-meter="generations"] .meter-text[data-value="1"]')
          .waitFor({ timeout: WAIT_MS });
        assert.ok((await meterValue(page, "tokens")) > first.tokens, "the token meter moved");
        assert.equal(first.generations, 0);
        await page.locator('li[data-generation="1"] [data-gate="count"][data-verdict="revise"]').waitFor();
        fx.write("release-2", "go");
        await page.locator(`main[data-state="needs-approval"]`).waitFor({ timeout: WAIT_MS });
        assert.ok((await meterValue(page, "wall-clock")) > 0, "the wall-clock meter moved");
        assert.match(await text(page.locator('[data-meter="tokens"] .meter-text')), / \/ 100,000$/);
        assert.equal(await text(page.locator('[data-meter="no-progress"] .meter-text')), "0 / 3");
        assert.match(await text(page.locator('[data-meter="cost"] .meter-text')), /^\$0\.00$/);
        assert.match(await text(page.locator("[data-banner]")), /human_gate/);
        // The generation charts: tokens so far against the budget, wall time, gate verdicts.
        const charts = page.locator(".generation-charts");
        assert.match(
          (await charts.locator("svg.cumulative").getAttribute("aria-label")) ?? "",
          /^Tokens so far after each generation: .*; budget 100,000\.$/,
        );
        assert.match(
          (await charts.locator("svg.wall").getAttribute("aria-label")) ?? "",
          /^Wall time per generation: /,
        );
        assert.equal(await charts.locator('li[data-verdicts-of="1"] abbr[data-verdict="revise"]').count(), 1);
        await screenshot(page, "loops-run-needs-approval");
        await assertAccessible(page, ["banner", "main", "navigation"]);
        await page
          .getByRole("region", { name: "Needs you" })
          .getByRole("button", { name: "Approve" })
          .click();
        await page.locator('main[data-state="done"]').waitFor({ timeout: WAIT_MS });
        assert.match(await text(page.locator("[data-banner]")), /gates_passed/);

        await open(`#/runs/${ids.spin}`);
        await page.locator('main[data-state="stalled"]').waitFor({ timeout: WAIT_MS });
        assert.match(await text(page.locator("[data-banner]")), /no_progress_hash: the generations stopped/);
        assert.equal(await text(page.locator('[data-meter="no-progress"] .meter-text')), "2 / 2");
        await screenshot(page, "loops-run-stalled");

        await open(`#/runs/${ids.capped}`);
        await page.locator('main[data-state="exhausted"]').waitFor({ timeout: WAIT_MS });
        assert.match(
          await text(page.locator("[data-banner]")),
          /iteration_cap: the iteration cap was reached/,
        );
        assert.equal(await text(page.locator('[data-meter="generations"] .meter-text')), "1 / 1");
      } finally {
        await page.close();
        await daemon.close();
        await fx.remove();
      }
    });
  });
}
