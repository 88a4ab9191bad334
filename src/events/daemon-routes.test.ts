import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { matchRoute, type RequestOf, routeUrl } from "./daemon-route-types.ts";
import { DAEMON_ROUTES, ROUTE_NAMES, type RouteName } from "./daemon-routes.ts";

/** A request of each route with awkward parameters (a slash, a space, a percent sign). */
const SAMPLES: { readonly [N in RouteName]: RequestOf<N> } = {
  health: {},
  listRuns: { query: { loop: "nightly docs" } },
  getRun: { params: { id: "a/b c" } },
  sendCommand: { params: { id: "r%1" }, body: { type: "approve", add: 100 } },
  addNote: { params: { id: "r1" }, body: { text: "look at the flaky test" } },
  events: { query: { after: 42 } },
  listLoops: {},
  lintLoop: { params: { id: "docs/nightly" } },
  startRun: { params: { id: "demo" }, body: { idempotencyKey: "k", set: { iteration_cap: 2 } } },
  metrics: {},
};

function roundTrip<N extends RouteName>(name: N): void {
  const request: RequestOf<N> = SAMPLES[name];
  const url = new URL(routeUrl(name, request), "http://daemon");
  const match = matchRoute(DAEMON_ROUTES[name].method, url.pathname);
  assert.equal(match?.name, name, url.pathname);
  assert.deepEqual(match?.params, request.params ?? {});
}

describe("the daemon's route table", () => {
  test("every route's URL matches that route again, with its parameters decoded", () => {
    for (const name of ROUTE_NAMES) roundTrip(name);
    assert.equal(routeUrl("listRuns", { query: { loop: "nightly docs" } }), "/runs?loop=nightly+docs");
  });

  test("a path no route has, or a method its route does not take, matches nothing", () => {
    assert.equal(matchRoute("GET", "/runs/r1/commands"), undefined);
    assert.equal(matchRoute("DELETE", "/runs/r1"), undefined);
    assert.equal(matchRoute("GET", "/runs/r1/extra/parts"), undefined);
    assert.equal(matchRoute("GET", "/runs/%E0%A4%A"), undefined, "a malformed escape is no parameter");
  });

  test("bodies are strict and queries lenient: an unknown body field is refused, `?token=` is not", () => {
    const body = DAEMON_ROUTES.addNote.body.safeParse({ text: "hi", colour: "red" });
    assert.equal(body.error?.issues[0]?.code, "unrecognized_keys");
    assert.ok(DAEMON_ROUTES.events.query.safeParse({ after: "7", token: "secret" }).success);
  });
});

/** Compile-time only: the requests the table allows (tsc checks this file; it never runs). */
export function typeChecks(): void {
  // @ts-expect-error a route the table does not have
  routeUrl("deleteRun", {});
  // @ts-expect-error a path parameter is required where the pattern has one
  routeUrl("getRun", {});
  // @ts-expect-error a command the table does not know
  routeUrl("sendCommand", { params: { id: "r" }, body: { type: "explode" } });
  // @ts-expect-error `add` is a number of tokens or seconds
  routeUrl("sendCommand", { params: { id: "r" }, body: { type: "approve", add: "lots" } });
}
