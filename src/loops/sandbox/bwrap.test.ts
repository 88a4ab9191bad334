import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { bwrapArgv, bwrapProblem } from "./bwrap.ts";

describe("bubblewrap", () => {
  test("a missing bubblewrap is a problem that says how to install it", () => {
    assert.match(
      bwrapProblem("/nonexistent/bwrap") ?? "",
      /missing: install Debian's bubblewrap \(apt-get install bubblewrap\)/,
    );
  });

  test("hidden directories come first, then read-only binds, then writable ones; network off unshares it", () => {
    const argv = bwrapArgv(
      { cwd: "/tmp", hidden: ["/tmp"], readOnly: ["/usr"], writable: ["/tmp"], network: false },
      ["true"],
    );
    const at = (flag: string) =>
      argv.findIndex((a, i) => a === flag && argv[i + 1] !== "/" && argv[i + 1] !== "/dev");
    assert.ok(at("--tmpfs") < at("--ro-bind") && at("--ro-bind") < at("--bind"));
    assert.ok(argv.includes("--unshare-net"));
    assert.deepEqual(argv.slice(-2), ["--", "true"]);
  });
});
