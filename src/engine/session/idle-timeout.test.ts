import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BUILTIN_HARNESSES } from "../../harness/index.ts";
import { DEFAULT_IDLE_TIMEOUT_SECONDS, idleTimeoutMs } from "./idle-timeout.ts";

const NONE = { codon: undefined, hank: undefined, cli: undefined };

describe("idleTimeoutMs", () => {
  it("takes the codon's, then the hank's, then the command line's timeout", () => {
    assert.equal(idleTimeoutMs({ codon: 5, hank: 6, cli: 7, harnessDefault: 180 }), 5000);
    assert.equal(idleTimeoutMs({ ...NONE, hank: 6, cli: 7, harnessDefault: 180 }), 6000);
    assert.equal(idleTimeoutMs({ ...NONE, cli: 7, harnessDefault: 180 }), 7000);
  });

  it("falls back to the harness's declared default, then to the runtime's", () => {
    assert.equal(idleTimeoutMs({ ...NONE, harnessDefault: 120 }), 120_000);
    assert.equal(idleTimeoutMs({ ...NONE, harnessDefault: undefined }), DEFAULT_IDLE_TIMEOUT_SECONDS * 1000);
  });

  it("uses the reference runtime's defaults for the built-in harnesses", () => {
    const byKind = Object.fromEntries(BUILTIN_HARNESSES.map((d) => [d.kind, d.defaultIdleTimeoutSeconds]));
    assert.deepEqual(byKind, { claude: 180, pi: 120, scripted: 180, command: 180 });
  });
});
