import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tracingSettings } from "./tracing-settings.ts";

describe("tracingSettings", () => {
  it("is off without any OTEL_* variable, the switch or the flag", () => {
    assert.equal(tracingSettings({ PATH: "/usr/bin" }), undefined);
  });

  it("is on with an endpoint, appending /v1/traces, protobuf by default", () => {
    assert.deepEqual(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://tempo:4318/" }), {
      url: "http://tempo:4318/v1/traces",
      protocol: "http/protobuf",
      serviceName: "hankweave",
      headers: {},
    });
  });

  it("takes the traces endpoint as is, the JSON protocol, the service name and the headers", () => {
    const settings = tracingSettings({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://api.honeycomb.io/v1/traces",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "nightly",
      OTEL_EXPORTER_OTLP_HEADERS: "x-honeycomb-team=abc%3D,x-other = 2",
    });
    assert.deepEqual(settings, {
      url: "https://api.honeycomb.io/v1/traces",
      protocol: "http/json",
      serviceName: "nightly",
      headers: { "x-honeycomb-team": "abc=", "x-other": "2" },
    });
  });

  it("is on with the flag, HANKWEAVE_OTEL or OTEL_TRACES_EXPORTER=otlp, to localhost:4318", () => {
    for (const [env, flag] of [
      [{}, true],
      [{ HANKWEAVE_OTEL: "1" }, false],
      [{ OTEL_TRACES_EXPORTER: "otlp" }, false],
    ] as const) {
      assert.equal(tracingSettings(env, flag)?.url, "http://localhost:4318/v1/traces");
    }
  });

  it("is off when OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none says so, whatever else asks", () => {
    const asks = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318" };
    assert.equal(tracingSettings({ ...asks, OTEL_SDK_DISABLED: "true" }, true), undefined);
    assert.equal(tracingSettings({ ...asks, OTEL_TRACES_EXPORTER: "none" }, true), undefined);
  });
});
