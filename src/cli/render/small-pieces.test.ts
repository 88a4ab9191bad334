import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderEnvPassthrough } from "./env-passthrough.ts";
import { renderGoodToRun } from "./good-to-run.ts";
import { renderHeader } from "./header.ts";
import { colorWanted, renderWidth, tuiWanted } from "./style.ts";

const plain = { color: false, width: 100 };

describe("report pieces", () => {
  it("renders the header box with version, platform and node", () => {
    const runtime = { version: "0.1.0", platform: "linux", arch: "x64", nodeVersion: "v20.19.0" };
    assert.equal(
      renderHeader(runtime, plain),
      [
        "╭───────────────────────────╮",
        "│ hankweave v0.1.0          │",
        "│ linux x64 • node v20.19.0 │",
        "╰───────────────────────────╯",
      ].join("\n"),
    );
  });

  it("renders the GOOD TO RUN box and the run command", () => {
    const counts = { codons: 2, loops: 1, prompts: 2, systemPrompts: 0, rigs: 1, checkpoints: 2 };
    assert.equal(
      renderGoodToRun(counts, "hankweave hank.json -m scripted", plain),
      [
        "╭─ GOOD TO RUN! ──────────────────────────────────────────────────╮",
        "│ 2 codons • 2 prompts • 0 system prompts • 1 rig • 2 checkpoints │",
        "╰─────────────────────────────────────────────────────────────────╯",
        "Run it: hankweave hank.json -m scripted",
      ].join("\n"),
    );
  });

  it("lists pass-through variables as the report shows them, or nothing", () => {
    assert.equal(
      renderEnvPassthrough([{ name: "API_TOKEN", shown: "****abcd" }], plain),
      [
        "Environment for the agents:",
        "  From the system (HANKWEAVE_ prefixed):",
        "  - API_TOKEN: ****abcd",
      ].join("\n"),
    );
    assert.equal(renderEnvPassthrough([], plain), "");
  });

  it("colours only a terminal without NO_COLOR, and caps the width at 120", () => {
    assert.equal(colorWanted(true, {}), true);
    assert.equal(colorWanted(true, { NO_COLOR: "" }), false);
    assert.equal(colorWanted(false, {}), false);
    assert.equal(renderWidth(200), 120);
    assert.equal(renderWidth(60), 60);
    assert.equal(renderWidth(undefined), 80);
  });

  it("draws the TUI only on a terminal at both ends, without --headless, outside CI", () => {
    const terminal = { stdin: true, stdout: true };
    assert.equal(tuiWanted(false, terminal, {}), true);
    assert.equal(tuiWanted(true, terminal, {}), false);
    assert.equal(tuiWanted(false, { stdin: false, stdout: true }, {}), false);
    assert.equal(tuiWanted(false, { stdin: true, stdout: false }, {}), false);
    assert.equal(tuiWanted(false, terminal, { CI: "true" }), false);
    assert.equal(tuiWanted(false, terminal, { CONTINUOUS_INTEGRATION: "1" }), false);
    assert.equal(tuiWanted(false, terminal, { CI: "false" }), true);
    assert.equal(tuiWanted(false, terminal, { CI: "0" }), true);
  });

  it("paints with ANSI codes when colour is on", () => {
    const runtime = { version: "0.1.0", platform: "linux", arch: "x64", nodeVersion: "v20.19.0" };
    assert.ok(renderHeader(runtime, { color: true, width: 100 }).includes("\u001b[1mhankweave\u001b[22m"));
  });
});
