import assert from "node:assert/strict";
import { test } from "node:test";
import { buildAgentEnv, passThroughOverlay } from "./agent-env.ts";

test("HANKWEAVE_FOO=bar gives the agent FOO=bar (reference scenario 18)", () => {
  const env = buildAgentEnv({ PATH: "/bin", HANKWEAVE_FOO: "bar" });
  assert.deepEqual(env, { PATH: "/bin", HANKWEAVE_FOO: "bar", FOO: "bar" });
});

test("the value unset removes the variable (reference scenario 18)", () => {
  const env = buildAgentEnv({
    ANTHROPIC_BASE_URL: "http://proxy",
    HANKWEAVE_ANTHROPIC_BASE_URL: "unset",
  });
  assert.deepEqual(env, { HANKWEAVE_ANTHROPIC_BASE_URL: "unset" });
});

test("a pass-through value overrides the variable of the same name", () => {
  assert.equal(buildAgentEnv({ FOO: "old", HANKWEAVE_FOO: "new" }).FOO, "new");
  assert.equal(buildAgentEnv({ HANKWEAVE_FOO: "new", FOO: "old" }).FOO, "new");
});

test("runtime and sentinel variables are not passed through", () => {
  const env = buildAgentEnv({
    HANKWEAVE_RUNTIME_SHOW_COSTS: "true",
    HANKWEAVE_SENTINEL_ANTHROPIC_API_KEY: "sk-sentinel",
    SHOW_COSTS: "kept",
  });
  assert.deepEqual(env, {
    HANKWEAVE_RUNTIME_SHOW_COSTS: "true",
    HANKWEAVE_SENTINEL_ANTHROPIC_API_KEY: "sk-sentinel",
    SHOW_COSTS: "kept",
  });
});

test("the codon env is applied last and wins over the pass-through", () => {
  const env = buildAgentEnv(
    { HANKWEAVE_FOO: "bar", HANKWEAVE_GONE: "unset", GONE: "x" },
    { FOO: "codon", GONE: "back" },
  );
  assert.equal(env.FOO, "codon");
  assert.equal(env.GONE, "back");
});

test("the rest of the environment is kept as it is, NODE_EXTRA_CA_CERTS included; undefined values are dropped", () => {
  const env = buildAgentEnv({
    NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
    HOME: "/home/u",
    EMPTY: "",
    MISSING: undefined,
  });
  assert.deepEqual(env, { NODE_EXTRA_CA_CERTS: "/etc/ca.pem", HOME: "/home/u", EMPTY: "" });
});

test("the inputs are not changed", () => {
  const processEnv = { HANKWEAVE_FOO: "bar", FOO: "x" };
  const codonEnv = { BAZ: "1" };
  buildAgentEnv(processEnv, codonEnv);
  assert.deepEqual(processEnv, { HANKWEAVE_FOO: "bar", FOO: "x" });
  assert.deepEqual(codonEnv, { BAZ: "1" });
});

test("the overlay lists the pass-through pairs, null for removal, and skips a bare prefix", () => {
  assert.deepEqual(
    passThroughOverlay({ HANKWEAVE_: "x", HANKWEAVE_A: "1", HANKWEAVE_B: "unset", OTHER: "2" }),
    [
      { name: "A", value: "1" },
      { name: "B", value: null },
    ],
  );
});
