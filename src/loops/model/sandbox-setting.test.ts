import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readLimitConfig } from "../definition/limit-config.ts";
import { parseDefinition } from "../definition/load-definition.ts";
import { effectiveSandbox } from "./sandbox-setting.ts";

describe("the sandbox setting", () => {
  test("the definition's [sandbox] wins over the daemon default; none is no sandbox", () => {
    const bwrap = { kind: "bwrap" as const, network: true };
    assert.deepEqual(effectiveSandbox(undefined, bwrap), bwrap);
    assert.equal(effectiveSandbox({ kind: "none", network: true }, bwrap), null);
    assert.deepEqual(effectiveSandbox({ kind: "bwrap", network: false }, undefined), {
      kind: "bwrap",
      network: false,
    });
    assert.equal(effectiveSandbox(undefined, undefined), null);
  });

  test("the daemon default is read from [loops.sandbox] of config.toml", () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-config-"));
    try {
      const path = join(dir, "config.toml");
      writeFileSync(path, '[loops.sandbox]\nkind = "bwrap"\nnetwork = false\n');
      const read = readLimitConfig(path);
      assert.deepEqual(read.ok && read.config.sandbox, { kind: "bwrap", network: false });
      writeFileSync(path, '[loops.sandbox]\nkind = "docker"\n');
      assert.equal(readLimitConfig(path).ok, false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a definition's sandbox kind is checked, naming its path", () => {
    const parsed = parseDefinition(
      'id = "x"\nname = "x"\nhank = "./h"\n[contract]\ngoal = "g"\n[sandbox]\nkind = "firejail"\n',
      "/defs/x.loop.toml",
    );
    assert.equal(parsed.ok, false);
    assert.ok(!parsed.ok && parsed.issues.some((i) => i.path.join(".") === "sandbox.kind"));
  });
});
