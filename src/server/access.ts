import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** The loopback address the server binds unless told otherwise. */
export const DEFAULT_BIND_HOST = "127.0.0.1";

/** Who may connect: a token (required when the server listens beyond loopback) and browser origins. */
export interface AccessPolicy {
  /** The bind address. */
  readonly host: string;
  /** Required from every client when set: `?token=` in the URL or `Authorization: Bearer`. */
  readonly token: string | undefined;
  /** Browser origins allowed besides loopback ones and the bind host's (`http://dash.example:8080`). */
  readonly allowedOrigins: ReadonlySet<string>;
}

export type AccessSetup =
  | { readonly ok: true; readonly policy: AccessPolicy; readonly generatedToken: boolean }
  | { readonly ok: false; readonly message: string };

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Decides the policy for a bind address: loopback needs nothing (a token is enforced when given);
 * any other address needs a token, generated when none was given (the caller prints it once; it is
 * never journaled).
 */
export function setUpAccess(input: {
  readonly host?: string;
  readonly token?: string;
  readonly allowedOrigins?: readonly string[];
}): AccessSetup {
  const host = input.host ?? DEFAULT_BIND_HOST;
  if (input.token !== undefined && input.token.length < 16) {
    return { ok: false, message: "The server token must be at least 16 characters long." };
  }
  const generate = input.token === undefined && !isLoopbackHost(host);
  const token = generate ? randomBytes(24).toString("base64url") : input.token;
  const allowedOrigins = new Set((input.allowedOrigins ?? []).map((origin) => origin.toLowerCase()));
  return { ok: true, policy: { host, token, allowedOrigins }, generatedToken: generate };
}

export type UpgradeVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

/**
 * Checks a WebSocket upgrade before it is accepted. A request naming a host other than loopback or the
 * bind address is refused (a DNS-rebinding page); a browser's `Origin` must be loopback, the bind host
 * or an allowed origin (a page elsewhere cannot drive a local run); the token must match when set.
 */
export function checkUpgrade(
  headers: IncomingHttpHeaders,
  url: string | undefined,
  policy: AccessPolicy,
): UpgradeVerdict {
  const hostHeader = headers.host ?? "";
  if (hostHeader !== "" && !isKnownHost(hostnameOf(hostHeader), policy)) {
    return { ok: false, status: 403, message: `Host '${hostHeader}' is not served here` };
  }
  const origin = headers.origin;
  if (origin !== undefined && !isAllowedOrigin(origin, policy)) {
    return {
      ok: false,
      status: 403,
      message: `Origin '${origin}' may not connect: only pages on this machine or allowed origins may`,
    };
  }
  if (policy.token !== undefined && !tokenMatches(tokenOf(headers, url), policy.token)) {
    return { ok: false, status: 401, message: "A valid token is required: connect with ?token=<token>" };
  }
  return { ok: true };
}

function isKnownHost(hostname: string, policy: AccessPolicy): boolean {
  if (isLoopbackHost(hostname)) return true;
  const bound = policy.host.toLowerCase();
  return bound === "0.0.0.0" || bound === "::" || hostname === bound;
}

function isAllowedOrigin(origin: string, policy: AccessPolicy): boolean {
  if (policy.allowedOrigins.has(origin.toLowerCase())) return true;
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    return false;
  }
  return isLoopbackHost(hostname) || hostname.toLowerCase() === policy.host.toLowerCase();
}

/** `example.org:8080` -> `example.org`; `[::1]:80` -> `::1`. */
function hostnameOf(hostHeader: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(hostHeader);
  if (bracketed?.[1] !== undefined) return bracketed[1].toLowerCase();
  return (hostHeader.split(":")[0] ?? "").toLowerCase();
}

function tokenOf(headers: IncomingHttpHeaders, url: string | undefined): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? "");
  if (bearer?.[1] !== undefined) return bearer[1];
  return new URL(url ?? "/", "ws://localhost").searchParams.get("token") ?? undefined;
}

/** Compared through fixed-length digests, in constant time. */
function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
