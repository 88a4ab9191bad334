import { existsSync } from "node:fs";
import { after, before, describe } from "node:test";
import type { Browser } from "playwright-core";
import { executionPageCases } from "./execution-page-cases.ts";
import { loopsPagesCases } from "./loops-pages-cases.ts";
import { CHROMIUM, launchBrowser } from "./support.ts";
import { viewPageCases } from "./view-page-cases.ts";

/**
 * Why the browser tests cannot run here, or undefined when they can. A machine without Chromium skips
 * them with the reason (`npm test` works on a fresh machine); under CI (`CI` set), whose `.ci/run`
 * installs it, a missing browser is a failure, never a skip.
 */
function missingBrowser(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set HANKWEAVE_CHROMIUM)`;
  if (process.env.CI !== undefined && process.env.CI !== "") throw new Error(`Under CI: ${reason}`);
  return reason;
}

/**
 * The web app in a real Chromium: one browser for every case (starting one costs a second or two of
 * the CI's budget), a fresh page per case.
 */
describe("web pages in Chromium", { skip: missingBrowser() ?? false }, () => {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  const browserOf = (): Browser => {
    if (browser === undefined) throw new Error("the browser is not started");
    return browser;
  };

  executionPageCases(browserOf);
  loopsPagesCases(browserOf);
  viewPageCases(browserOf);
});
