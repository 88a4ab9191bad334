import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The web app's static files under `/ui/`, served by the run server and by the daemon from the same
 * built folder (scripts/bundle-web.mjs writes it: `app.js`, `app.css`, one HTML page per face). The
 * files hold no data: what a page shows comes through the server's own protocol, with its token rules.
 */

/** Which page `/ui/` opens: an execution (run server) or the Loops pages (daemon). */
export type WebFace = "execution" | "loops";

export interface WebAssetsOptions {
  /** The built folder; default: `dist/web` of this package (see `defaultWebAssetsDir`). */
  readonly dir: string | undefined;
  readonly face: WebFace;
  /**
   * Decides whether the page itself (not its scripts and styles) may be served: the caller's token and
   * host rules. A refusal is answered with its status and message.
   */
  readonly admitPage: (
    request: IncomingMessage,
  ) => { ok: true } | { ok: false; status: number; message: string };
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** Only plain file names in the folder: no slash, no leading dot, so no path can leave it. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** The page may connect back to its own origin (fetch, EventSource, WebSocket) and load nothing else. */
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
};

/**
 * `dist/web` next to the running code: `../web` from `dist/server/` or from the bundled `dist/cli/`;
 * from the sources (tsx), the package's `dist/web` when it was built. Undefined when none is built.
 */
export function defaultWebAssetsDir(): string | undefined {
  const candidates = [new URL("../web/", import.meta.url), new URL("../../dist/web/", import.meta.url)];
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate);
    if (existsSync(join(dir, "app.js"))) return dir;
  }
  return undefined;
}

/** True when the request is for `/ui` or below (and was answered); false leaves it to the caller. */
export function serveWebAsset(
  request: IncomingMessage,
  response: ServerResponse,
  options: WebAssetsOptions,
): boolean {
  const url = new URL(request.url ?? "/", "http://localhost");
  if (url.pathname !== "/ui" && !url.pathname.startsWith("/ui/")) return false;
  if (request.method !== "GET" && request.method !== "HEAD") {
    sendJson(response, 405, { error: "Only GET and HEAD are served under /ui/" });
    return true;
  }
  if (url.pathname === "/ui") {
    response.writeHead(308, { location: `/ui/${url.search}` });
    response.end();
    return true;
  }
  const name = url.pathname.slice("/ui/".length);
  const isFacePage = name === "" || name === "index.html";
  // Every page, this face's or another built one asked for by name, follows the page rule.
  if (isFacePage || name.endsWith(".html")) {
    const verdict = options.admitPage(request);
    if (!verdict.ok) {
      sendJson(response, verdict.status, { error: verdict.message });
      return true;
    }
  }
  sendFile(response, options, isFacePage ? `${options.face}.html` : name, request.method === "HEAD");
  return true;
}

function sendFile(
  response: ServerResponse,
  options: WebAssetsOptions,
  name: string,
  headOnly: boolean,
): void {
  const type = CONTENT_TYPES[extname(name)];
  if (!ASSET_NAME.test(name) || type === undefined) {
    sendJson(response, 404, { error: `No such file under /ui/: ${name}` });
    return;
  }
  if (options.dir === undefined || !existsSync(join(options.dir, "app.js"))) {
    sendJson(response, 404, {
      error: "The web app is not built here: run `npm run build` (or `node scripts/bundle-web.mjs`).",
    });
    return;
  }
  let body: Buffer;
  try {
    body = readFileSync(join(options.dir, name));
  } catch {
    sendJson(response, 404, { error: `No such file under /ui/: ${name}` });
    return;
  }
  response.writeHead(200, { ...SECURITY_HEADERS, "content-type": type, "content-length": body.length });
  response.end(headOnly ? undefined : body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}
