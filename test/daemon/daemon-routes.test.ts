import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { apiHandlers } from "../../src/daemon/api-handlers.ts";
import type { Handler } from "../../src/daemon/api-types.ts";
import { type ApiOptions, createApiServer } from "../../src/daemon/http-api.ts";
import { type RequestOf, routeUrl } from "../../src/events/daemon-route-types.ts";
import {
  DAEMON_ROUTES,
  ROUTE_NAMES,
  type RouteName,
  type RouteSpec,
} from "../../src/events/daemon-routes.ts";
import { systemClock } from "../../src/util/clock.ts";
import { INCREMENT, type LoopFixture, loopFixture } from "../loops/loop-fixture.ts";

const TOKEN = "route-table-token";
const TOML = `[contract]\ngoal = "g"\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;

let fx: LoopFixture;
let base: string;
let runId: string;
let options: ApiOptions;
let close: () => Promise<void>;

before(async () => {
  fx = await loopFixture({ body: [INCREMENT], toml: TOML, scripts: { "check.sh": "#!/bin/sh\nexit 1\n" } });
  // A start registers the loop (`demo`), so the API can lint and start it by id; no driver runs it.
  const admitted = await fx.admit({ idempotencyKey: "first" });
  if (admitted.kind !== "admitted") throw new Error(admitted.kind);
  runId = admitted.run.id;
  options = {
    store: fx.store,
    token: TOKEN,
    streamPollMs: 20,
    starts: { home: fx.home, clock: systemClock() },
    metrics: async () => ({ contentType: "text/plain; version=0.0.4", body: "hankweave_loop_runs 1\n" }),
  };
  const server = createApiServer(options);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
});

after(async () => {
  await close();
  await fx.remove();
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  return { status: response.status, response };
}

/** A valid request of every route, on the fixture's run and loop. */
function requests(): { readonly [N in RouteName]: RequestOf<N> } {
  return {
    health: {},
    listRuns: { query: { loop: "demo" } },
    getRun: { params: { id: runId } },
    sendCommand: { params: { id: runId }, body: { type: "pause", by: "tests" } },
    addNote: { params: { id: runId }, body: { text: "look at the flaky test", by: "tests" } },
    events: { query: { after: 0 } },
    listLoops: {},
    lintLoop: { params: { id: "demo" } },
    startRun: { params: { id: "demo" }, body: { idempotencyKey: "first" } },
    metrics: {},
  };
}

/** Sends route `name`'s sample and checks the answer against the table: a declared status, a parsing body. */
async function exercise<N extends RouteName>(name: N): Promise<number> {
  const route: RouteSpec = DAEMON_ROUTES[name];
  const request: RequestOf<N> = requests()[name];
  const { status, response } = await call(
    route.method,
    routeUrl(name, request),
    "body" in request ? request.body : undefined,
  );
  const schema = route.responses[status];
  assert.ok(schema !== undefined, `${name}: status ${status} is not in the table`);
  if (route.kind === "sse") {
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader?.read();
    await reader?.cancel();
    const data =
      String(first?.value ?? "")
        .split("\n")
        .find((line) => line.startsWith("data: ")) ?? "";
    assert.ok(
      schema.safeParse(JSON.parse(data.slice(6))).success,
      `${name}: an entry the table does not promise`,
    );
    return status;
  }
  const body: unknown = route.kind === "text" ? await response.text() : await response.json();
  const parsed = schema.safeParse(body);
  assert.ok(parsed.success, `${name} ${status}: ${JSON.stringify(parsed.error?.issues)}`);
  return status;
}

describe("the daemon's routes are its route table", { concurrency: 1 }, () => {
  test("every route of the table has a handler, and the server has no handler the table lacks", () => {
    assert.deepEqual(Object.keys(apiHandlers(options)).sort(), [...ROUTE_NAMES].sort());
  });

  test("every route answers a valid request with a status and a body its table entry declares", async () => {
    const statuses: Record<string, number> = {};
    for (const name of ROUTE_NAMES) statuses[name] = await exercise(name);
    assert.deepEqual(statuses, {
      health: 200,
      listRuns: 200,
      getRun: 200,
      sendCommand: 202,
      addNote: 201,
      events: 200,
      listLoops: 200,
      lintLoop: 200,
      startRun: 200,
      metrics: 200,
    });
  });

  test("a path or a method outside the table is 404, before or after the token", async () => {
    for (const [method, path] of [
      ["GET", "/nope"],
      ["DELETE", `/runs/${runId}`],
      ["GET", `/runs/${runId}/notes`],
    ]) {
      const { status, response } = await call(method ?? "GET", path ?? "/");
      assert.deepEqual(
        [status, await response.json()],
        [404, { code: "no-such-route", error: "no such route" }],
      );
    }
  });

  test("a bad request is refused with 400: every issue, its JSON path, what is wrong and the fix", async () => {
    const { status, response } = await call("POST", `/runs/${runId}/commands`, {
      type: "explode",
      add: "lots",
      colour: "red",
    });
    const answer = (await response.json()) as {
      code: string;
      error: string;
      issues: { code: string; path: string; hint: string }[];
    };
    assert.equal(status, 400);
    assert.deepEqual(
      answer.issues.map((issue) => [issue.code, issue.path]),
      [
        ["bad-value", "body.type"],
        ["bad-value", "body.add"],
        ["unknown-field", "body.colour"],
      ],
    );
    assert.match(answer.issues[0]?.hint ?? "", /pause, resume, stop, approve, reject/);
    assert.match(answer.issues[2]?.hint ?? "", /the fields are type, add, comment, by/);
    assert.match(answer.error, /body\.type: .*; body\.add: .*; body\.colour: /);
  });

  test("a cost field is named as such, nested ones too; a body that is not JSON says so", async () => {
    const cost = await call("POST", "/loops/demo/runs", { set: { cost_usd: 5, iteration_cap: -1 } });
    const answer = (await cost.response.json()) as { code: string; issues: { code: string; path: string }[] };
    assert.deepEqual([cost.status, answer.code], [400, "cost-field"]);
    assert.deepEqual(
      answer.issues.map((issue) => [issue.code, issue.path]),
      [
        ["bad-value", "body.set.iteration_cap"],
        ["cost-field", "body.set.cost_usd"],
      ],
    );
    const garbled = await call("POST", `/runs/${runId}/notes`, "{not json");
    assert.deepEqual(
      [garbled.status, ((await garbled.response.json()) as { code: string }).code],
      [400, "not-an-object"],
    );
    const after = await call("GET", "/events?after=soon");
    const issues = ((await after.response.json()) as { issues: { path: string }[] }).issues;
    assert.deepEqual([after.status, issues.map((issue) => issue.path)], [400, ["query.after"]]);
  });
});

/** Compile-time only: a handler may answer only what its route declares (tsc checks this; it never runs). */
export const handlerTypeChecks: readonly Handler<"getRun">[] = [
  // @ts-expect-error the run detail is an object with the run, not a string
  async () => ({ status: 200, body: "the run" }),
  // @ts-expect-error `getRun` declares no 409
  async () => ({ status: 409, body: { error: "busy" } }),
  // @ts-expect-error a run's state is one of the table's states
  async () => ({
    status: 200,
    body: { run: { state: "sleeping" }, generations: [], messages: [], endLayers: null },
  }),
];
