import type { z } from "zod";
import { DAEMON_ROUTES, type DaemonRoutes, ROUTE_NAMES, type RouteName } from "./daemon-routes.ts";

/**
 * What the route table means for a caller and for the daemon: the parameters of a path pattern, a
 * route's request and answers as types, its URL, and which route a request names. Pure and
 * browser-safe: the web page's client and the daemon's server both derive from it.
 */

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of route `N`, each a decoded string. */
type ParamsOf<N extends RouteName> = { readonly [K in ParamNames<DaemonRoutes[N]["path"]>]: string };

type Schema<N extends RouteName, K extends string> = DaemonRoutes[N] extends { readonly [P in K]: infer S }
  ? S extends z.ZodType
    ? S
    : never
  : never;

/** What a caller sends: `params` when the path has any, `query` when the route reads one, `body` for a POST. */
export type RequestOf<N extends RouteName> = ([ParamNames<DaemonRoutes[N]["path"]>] extends [never]
  ? { readonly params?: undefined }
  : { readonly params: ParamsOf<N> }) &
  ([Schema<N, "query">] extends [never] ? unknown : { readonly query?: z.input<Schema<N, "query">> }) &
  ([Schema<N, "body">] extends [never] ? unknown : { readonly body: z.input<Schema<N, "body">> });

/** What the daemon does with a request of route `N` once validated (the schemas' outputs). */
export interface ParsedRequest<N extends RouteName> {
  readonly params: ParamsOf<N>;
  readonly query: [Schema<N, "query">] extends [never] ? undefined : z.output<Schema<N, "query">>;
  readonly body: [Schema<N, "body">] extends [never] ? undefined : z.output<Schema<N, "body">>;
}

type Responses<N extends RouteName> = DaemonRoutes[N]["responses"];
export type StatusOf<N extends RouteName> = keyof Responses<N> & number;
/** The statuses that mean the route did what was asked. */
type OkStatus = 200 | 201 | 202;

/** The answer of route `N` with status `S`, as a client reads it. */
export type AnswerOf<N extends RouteName, S extends StatusOf<N>> = z.output<Responses<N>[S] & z.ZodType>;

/** A successful answer of route `N` (any 2xx it declares). */
export type SuccessOf<N extends RouteName> = {
  [S in StatusOf<N>]: S extends OkStatus ? AnswerOf<N, S> : never;
}[StatusOf<N>];

/** The URL path (and query) of a request of route `N`; parameters are encoded, undefined query keys left out. */
export function routeUrl<N extends RouteName>(name: N, request: RequestOf<N>): string {
  const params: Readonly<Record<string, string>> = request.params ?? {};
  const path = DAEMON_ROUTES[name].path.replace(/:(\w+)/g, (_, key: string) =>
    encodeURIComponent(params[key] ?? ""),
  );
  const query =
    "query" in request ? (request.query as Readonly<Record<string, unknown>> | undefined) : undefined;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === "" ? path : `${path}?${text}`;
}

/** The route a method and path name, with its decoded parameters; undefined when none does. */
export function matchRoute(
  method: string,
  pathname: string,
): { readonly name: RouteName; readonly params: Readonly<Record<string, string>> } | undefined {
  const parts = pathname.split("/").filter((part) => part !== "");
  for (const name of ROUTE_NAMES) {
    const route = DAEMON_ROUTES[name];
    if (route.method !== method) continue;
    const params = matchPath(route.path, parts);
    if (params !== undefined) return { name, params };
  }
  return undefined;
}

function matchPath(pattern: string, parts: readonly string[]): Record<string, string> | undefined {
  const wanted = pattern.split("/").filter((part) => part !== "");
  if (wanted.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of wanted.entries()) {
    const part = parts[index] ?? "";
    if (!segment.startsWith(":")) {
      if (segment !== part) return undefined;
      continue;
    }
    try {
      params[segment.slice(1)] = decodeURIComponent(part);
    } catch {
      return undefined;
    }
  }
  return params;
}
