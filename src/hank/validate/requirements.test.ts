import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToolFinder } from "./requirements.ts";
import { brief, codon, hankOf, only, run } from "./test-kit.ts";
import { validateHank } from "./validate-hank.ts";

describe("requirements", () => {
  const raw = hankOf([codon("a")], {
    requirements: { env: ["API_URL", "REGION", "TOKEN_X"], tools: ["git", "jq", "rg"] },
  });

  it("lists missing environment variables; HANKWEAVE_<NAME> satisfies NAME", () => {
    const report = run(raw, { env: { REGION: "eu", HANKWEAVE_TOKEN_X: "t", HANKWEAVE_API_URL: "unset" } });
    assert.deepEqual(brief(only(report, "missing-env")), {
      severity: "error",
      code: "missing-env",
      path: ["requirements", "env"],
      message:
        "Missing required environment variables: API_URL\nThese are declared in the hank's requirements.env field.",
    });
    const all = run(raw, { env: {} });
    assert.equal(
      only(all, "missing-env").message,
      "Missing required environment variables: API_URL, REGION, TOKEN_X\nThese are declared in the hank's requirements.env field.",
    );
  });

  it("lists tools not found on PATH", () => {
    const report = run(raw, {
      env: { API_URL: "u", REGION: "r", TOKEN_X: "t" },
      findTool: (name) => name === "git",
    });
    assert.deepEqual(brief(only(report, "missing-tools")), {
      severity: "error",
      code: "missing-tools",
      path: ["requirements", "tools"],
      message:
        "Missing required tools on PATH: jq, rg\nThese are declared in the hank's requirements.tools field.",
    });
  });

  it("finds executables on PATH by default", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hw-tools-"));
    try {
      fs.writeFileSync(path.join(dir, "mytool"), "#!/bin/sh\n", { mode: 0o755 });
      fs.writeFileSync(path.join(dir, "plain"), "data", { mode: 0o644 });
      const find = pathToolFinder({ PATH: `/nonexistent${path.delimiter}${dir}` });
      assert.equal(find("mytool"), true);
      assert.equal(find("plain"), false);
      assert.equal(find("absent"), false);
      const raw = hankOf([codon("a")], { requirements: { tools: ["mytool", "absent"] } });
      const report = validateHank(raw, { hankPath: "hank.json", hankDir: dir, env: { PATH: dir } });
      assert.equal(
        only(report, "missing-tools").message.split("\n")[0],
        "Missing required tools on PATH: absent",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
