import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkUpgrade, isLoopbackHost, setUpAccess } from "./access.ts";

const loopback = (token?: string) => {
  const setup = setUpAccess(token === undefined ? {} : { token });
  assert.ok(setup.ok);
  return setup.policy;
};

describe("setUpAccess", () => {
  it("binds loopback without a token by default", () => {
    const setup = setUpAccess({});
    assert.deepEqual(setup.ok && [setup.policy.host, setup.policy.token, setup.generatedToken], [
      "127.0.0.1",
      undefined,
      false,
    ]);
  });

  it("generates a token for any other address and keeps a given one", () => {
    const generated = setUpAccess({ host: "0.0.0.0" });
    assert.ok(generated.ok && generated.generatedToken);
    assert.match(generated.ok ? (generated.policy.token ?? "") : "", /^[A-Za-z0-9_-]{32}$/);
    const given = setUpAccess({ host: "10.0.0.5", token: "a-long-enough-token" });
    assert.deepEqual(given.ok && [given.policy.token, given.generatedToken], ["a-long-enough-token", false]);
  });

  it("refuses a short token", () => {
    assert.deepEqual(setUpAccess({ token: "short" }), {
      ok: false,
      message: "The server token must be at least 16 characters long.",
    });
  });

  it("knows the loopback names", () => {
    assert.deepEqual(
      ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "10.0.0.1", "0.0.0.0", "example.org"].map(
        isLoopbackHost,
      ),
      [true, true, true, true, true, false, false, false],
    );
  });
});

describe("checkUpgrade", () => {
  it("lets non-browser clients in on loopback", () => {
    assert.deepEqual(checkUpgrade({ host: "localhost:1234" }, "/", loopback()), { ok: true });
  });

  it("accepts loopback page origins and refuses others, and a rebinding Host header", () => {
    const policy = loopback();
    assert.deepEqual(checkUpgrade({ host: "127.0.0.1:1", origin: "http://localhost:5173" }, "/", policy), {
      ok: true,
    });
    const foreign = checkUpgrade({ host: "127.0.0.1:1", origin: "https://evil.example" }, "/", policy);
    assert.equal(foreign.ok, false);
    assert.equal(!foreign.ok && foreign.status, 403);
    const rebinding = checkUpgrade(
      { host: "evil.example:1234", origin: "http://evil.example:1234" },
      "/",
      policy,
    );
    assert.deepEqual(rebinding, {
      ok: false,
      status: 403,
      message: "Host 'evil.example:1234' is not served here",
    });
  });

  it("accepts allowed origins", () => {
    const setup = setUpAccess({ allowedOrigins: ["https://Dash.Example"] });
    assert.ok(setup.ok);
    assert.deepEqual(
      checkUpgrade({ host: "localhost:1", origin: "https://dash.example" }, "/", setup.policy),
      { ok: true },
    );
  });

  it("requires the token, by query or bearer header, when set", () => {
    const policy = loopback("0123456789abcdef");
    assert.deepEqual(checkUpgrade({ host: "localhost:1" }, "/", policy), {
      ok: false,
      status: 401,
      message: "A valid token is required: connect with ?token=<token>",
    });
    assert.equal(checkUpgrade({ host: "localhost:1" }, "/?token=wrong", policy).ok, false);
    assert.equal(checkUpgrade({ host: "localhost:1" }, "/?token=0123456789abcdef", policy).ok, true);
    assert.equal(
      checkUpgrade({ host: "localhost:1", authorization: "Bearer 0123456789abcdef" }, "/", policy).ok,
      true,
    );
  });
});
