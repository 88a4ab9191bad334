import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import type { ParsedRequest, StatusOf } from "../events/daemon-route-types.ts";
import type { DaemonRoutes, RouteName } from "../events/daemon-routes.ts";
import type { LimitConfig, LoopStore } from "../loops/index.ts";
import type { Clock } from "../util/clock.ts";
import type { RenderMetrics } from "./daemon-metrics.ts";

/** What the daemon's HTTP API serves from and how. */
export interface ApiOptions {
  readonly store: LoopStore;
  readonly token: string;
  /** How often the event stream looks for new events. */
  readonly streamPollMs?: number;
  /** The daemon's limit defaults and ceilings, shown by `GET /loops` (default: the built-in ones). */
  readonly limitConfig?: LimitConfig;
  /** The built web app (default: the package's `dist/web`, when built). */
  readonly webAssetsDir?: string;
  /** The address the API listens on: requests naming another host are refused (DNS rebinding). */
  readonly host?: string;
  /** Where started runs go and the clock that stamps them; without them `POST /loops/<id>/runs` is 404. */
  readonly starts?: { readonly home: string; readonly clock: Clock };
  /** Renders `GET /metrics`; without it the route is 404. */
  readonly metrics?: RenderMetrics;
}

type Responses<N extends RouteName> = DaemonRoutes[N]["responses"];
type BodyOf<N extends RouteName, S extends StatusOf<N>> = z.input<Responses<N>[S] & z.ZodType>;

/** A JSON (or, for a `text` route, plain text) answer of route `N`: a status it declares and its body. */
type BodyReply<N extends RouteName> = {
  [S in StatusOf<N>]: { readonly status: S; readonly body: BodyOf<N, S>; readonly contentType?: string };
}[StatusOf<N>];

/** An `sse` route's success: the entries to send, each one `data:` line, until the client leaves. */
interface StreamReply<N extends RouteName> {
  readonly status: 200;
  readonly stream: AsyncIterable<BodyOf<N, 200 & StatusOf<N>>>;
}

/** What the handler of route `N` may answer: only what the table declares for it. */
export type Reply<N extends RouteName> = DaemonRoutes[N]["kind"] extends "sse"
  ? StreamReply<N> | Exclude<BodyReply<N>, { readonly status: 200 }>
  : BodyReply<N>;

/** A handler gets the request validated against its route, the raw request, and a signal the client's leaving aborts. */
export type Handler<N extends RouteName> = (
  request: ParsedRequest<N>,
  context: { readonly raw: IncomingMessage; readonly signal: AbortSignal },
) => Promise<Reply<N>>;

/** One handler per route of the table: a route without one, or one the table lacks, fails to compile. */
export type ApiHandlers = { readonly [N in RouteName]: Handler<N> };
