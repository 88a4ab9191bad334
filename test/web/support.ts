import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { type ServedRun, serveHank } from "../server/support.ts";

/**
 * Browser-test support: the web app bundled once per process into a temp folder (never the whole
 * build), one headless Chromium (Debian's) shared by a file's tests, a served scripted run, and the
 * accessibility checks every page goes through.
 */

const ROOT = resolve(import.meta.dirname, "..", "..");
/** Where screenshots go (test artifacts); `HANKWEAVE_WEB_ARTIFACTS` overrides. */
export const ARTIFACTS = process.env.HANKWEAVE_WEB_ARTIFACTS ?? join(ROOT, ".hankweave-test-web");
/** A bound on a broken test's wait for a page state, never a pause. */
export const WAIT_MS = 30_000;

let bundled: Promise<string> | undefined;

/** The web app bundled by scripts/bundle-web.mjs into a temp folder, once per process. */
export function webAssets(): Promise<string> {
  bundled ??= (async () => {
    const { bundleWeb } = (await import(join(ROOT, "scripts", "bundle-web.mjs"))) as {
      bundleWeb: (outDir: string) => Promise<string>;
    };
    return bundleWeb(mkdtempSync(join(tmpdir(), "hw-web-assets-")));
  })();
  return bundled;
}

export const CHROMIUM = process.env.HANKWEAVE_CHROMIUM ?? "/usr/bin/chromium";

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium; .ci/run does) or set HANKWEAVE_CHROMIUM to a Chromium binary.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface ServedExecution extends ServedRun {
  /** The page URL the run prints: `http://localhost:<port>/ui/`. */
  readonly pageUrl: string;
}

/** A real run of `hank` (scripted agent, journal, checkpoints) served with the web app on 127.0.0.1:0. */
export async function serveExecution(
  hank: unknown,
  options: { readonly git?: boolean; readonly stayOpen?: boolean } = {},
): Promise<ServedExecution> {
  const served = await serveHank(hank, { ...options, serverOptions: { webAssetsDir: await webAssets() } });
  return { ...served, pageUrl: `http://localhost:${served.server.port}/ui/` };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

interface A11yReport {
  readonly landmarks: string[];
  readonly unnamed: string[];
  readonly actions: string[];
}

/** Landmarks, names of controls, and the actions keyboard users must reach, read from the live page. */
const A11Y_SCRIPT = `(() => {
  const name = (el) => (el.getAttribute("aria-label") || el.labels?.[0]?.textContent || el.textContent || "").trim();
  const visible = (el) => el.getClientRects().length > 0 && !el.disabled;
  const landmarks = [];
  if (document.querySelector("header, [role=banner]")) landmarks.push("banner");
  if (document.querySelectorAll("main").length === 1) landmarks.push("main");
  if (document.querySelector("nav")) landmarks.push("navigation");
  if (document.querySelector("aside, [role=complementary]")) landmarks.push("complementary");
  const controls = [...document.querySelectorAll("button, a[href], input, textarea, select, summary")].filter(visible);
  const unnamed = controls.filter((el) => name(el) === "" && !el.getAttribute("aria-labelledby")).map((el) => el.outerHTML.slice(0, 80));
  controls.forEach((el, i) => el.setAttribute("data-a11y-id", String(i)));
  return { landmarks, unnamed, actions: controls.map((el) => el.getAttribute("data-a11y-id")) };
})()`;

/**
 * Checks the page as a keyboard and screen-reader user meets it: the expected landmarks, a name on
 * every control, and every visible action reachable with Tab.
 */
export async function assertAccessible(page: Page, landmarks: readonly string[]): Promise<void> {
  const report = (await page.evaluate(A11Y_SCRIPT)) as A11yReport;
  for (const landmark of landmarks)
    assert.ok(report.landmarks.includes(landmark), `landmark ${landmark} missing`);
  assert.deepEqual(report.unnamed, [], "every control has an accessible name");
  await page.evaluate("document.activeElement?.blur(); window.focus()");
  const reached = new Set<string>();
  for (let i = 0; i < report.actions.length + 5; i += 1) {
    await page.keyboard.press("Tab");
    const id = (await page.evaluate(`document.activeElement?.getAttribute("data-a11y-id") ?? ""`)) as string;
    if (id !== "") reached.add(id);
  }
  const missed = report.actions.filter((id) => !reached.has(id));
  assert.deepEqual(missed, [], "every action is reachable with the keyboard");
}

/** A locator's text as the DOM holds it (empty when the element has none). */
export async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? "";
}
