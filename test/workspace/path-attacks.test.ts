import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { JournaledEvent } from "../../src/journal/index.ts";
import type { ExecutionLayout } from "../../src/workspace/execution-layout.ts";
import type { CliResult } from "../fixtures/hankweave-cli.ts";
import {
  codon,
  hankweave,
  journal,
  onlyExecution,
  payloads,
  type Sandbox,
  sandbox,
  writeHank,
} from "./support.ts";

/**
 * Paths that try to leave the execution directory or touch hankweave's state are refused: by the
 * validator before anything is created (rig copy targets, `..` and absolute globs, symlinked or
 * escaping copy sources), and at run time when the agent planted links after validation (targets
 * through a link, a source replaced by a link, a link inside a copied tree; links are archived and
 * copied as links, never followed).
 */

function outsideDir(sb: Sandbox): string {
  const dir = join(sb.root, "outside");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "secret.txt"), "secret");
  return dir;
}

/** The outside directory still holds exactly what it held. */
function assertUntouched(outside: string): void {
  assert.deepEqual(readdirSync(outside), ["secret.txt"]);
  assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "secret");
}

describe("path attacks refused by the validator", () => {
  const sb = sandbox("paths-static");
  after(() => sb.remove());

  it("refuses the hank with every problem listed and creates nothing", async () => {
    const outside = outsideDir(sb);
    const dir = join(sb.root, "hank");
    writeHank(
      dir,
      [
        codon("a", "@say hi", {
          rigSetup: [
            ["assets/one.txt", "../escape.txt"],
            ["assets/one.txt", join(sb.root, "absolute.txt")],
            ["assets/one.txt", ".hankweave/state.json"],
            ["assets/one.txt", "repo/.git/hooks/pre-commit"],
            ["assets/one.txt", "a/../../x.txt"],
            ["assets", "assets"],
            ["linked", "linked"],
            ["../outside", "outside"],
          ].map(([from, to]) => ({ type: "copy", copy: { from, to } })),
          archiveOnSuccess: ["../up", "/etc", "src/../../x", ".hankweave", "repo/.git/**"],
          outputFiles: [{ copy: ["../x", "a/**/../../y", "/abs"] }],
          checkpointedFiles: ["../c"],
        }),
      ],
      { files: { "assets/one.txt": "one" } },
    );
    symlinkSync(join(outside, "secret.txt"), join(dir, "assets", "link.txt"));
    symlinkSync(outside, join(dir, "linked"));
    const ran = await hankweave(sb, [dir, "--headless"]);
    assert.equal(ran.code, 1, ran.stderr);
    const text = ran.stderr.replace(/\s+/g, " ");
    for (const message of [
      'Target path "../escape.txt" would write outside execution directory',
      `Target path "${join(sb.root, "absolute.txt")}" would write outside execution directory`,
      'Invalid target path ".hankweave/state.json": ".hankweave" is reserved for hankweave\'s own state',
      'Invalid target path "repo/.git/hooks/pre-commit": ".git" would write into a git directory',
      'Target path "a/../../x.txt" would write outside execution directory',
      'copy source "assets" contains a symlink at "assets/link.txt"; symlinks are not allowed anywhere in a copied tree',
      'source path "linked" passes through a symlink at "linked"; symlinks are not allowed in hank refs',
      'source path "../outside" escapes the hank directory (at "..")',
      'archiveOnSuccess "../up" contains a ".." segment; workspace paths may not leave agentRoot',
      'archiveOnSuccess "/etc" is an absolute path; workspace paths are relative to agentRoot',
      'archiveOnSuccess "src/../../x" contains a ".." segment',
      'archiveOnSuccess ".hankweave" names ".hankweave", which hankweave never checkpoints, copies out or archives',
      'archiveOnSuccess "repo/.git/**" names ".git", which hankweave never checkpoints, copies out or archives',
      'outputFiles copy "../x" contains a ".." segment',
      'outputFiles copy "a/**/../../y" contains a ".." segment',
      'outputFiles copy "/abs" is an absolute path',
      'checkpointedFiles "../c" contains a ".." segment',
    ]) {
      assert.ok(text.includes(message), `refused: ${message}`);
    }
    assert.match(ran.stderr, /The hank is not valid: 17 errors\./);
    assert.equal(existsSync(sb.executions), false, "no execution was created");
    assert.equal(existsSync(join(sb.root, "absolute.txt")), false);
    assertUntouched(outside);
  });
});

describe("path attacks refused at run time", () => {
  const sb = sandbox("paths-runtime");
  const outside = outsideDir(sb);
  const hankDir = join(sb.root, "hank");
  const out = join(sb.root, "out");
  let ran: CliResult;
  let layout: ExecutionLayout;
  let events: JournaledEvent[];
  after(() => sb.remove());

  before(async () => {
    // The first codon plants links after validation: in agentRoot, and in the hank directory itself.
    const plant = [
      `@run ln -s ${outside} link`,
      `@run ln -s ${join(outside, "secret.txt")} leak.txt`,
      "@write .hankweave/state.json {}",
      "@write .git/config [core]",
      `@run rm ${hankDir}/assets/data.txt && ln -s ${join(outside, "secret.txt")} ${hankDir}/assets/data.txt`,
      `@run ln -s ${outside} ${hankDir}/tree/sub/inner`,
    ].join("\n");
    const copy = (from: string, to: string, allowFailure: boolean) => ({
      type: "copy",
      copy: { from, to },
      ...(allowFailure && { allowFailure }),
    });
    writeHank(
      hankDir,
      [
        codon("plant", plant, { outputFiles: [{ copy: ["leak.txt"] }] }),
        codon("rig", "@write done.txt ok", {
          rigSetup: [
            copy("assets/one.txt", "link/file.txt", true),
            copy("assets/data.txt", "data.txt", true),
            copy("tree", "tree-copy", true),
            copy("assets/one.txt", "link", false),
          ],
        }),
        codon("archive", "@say archiving", {
          // These globs reach into .hankweave and .git: the run-time scan must skip both.
          archiveOnSuccess: ["leak.txt", "**/state.json", "**/config"],
        }),
      ],
      { files: { "assets/one.txt": "one", "assets/data.txt": "data", "tree/sub/t.txt": "t" } },
    );
    ran = await hankweave(sb, [hankDir, "--headless", "-o", out]);
    layout = onlyExecution(sb);
    events = await journal(layout);
  });

  it("refuses rig copies through planted links and never writes outside", () => {
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(
      payloads(events, "rig.setup.failed").map((f) => [f.codonId, f.commandIndex, f.failureType, f.ignored]),
      [
        ["rig", 0, "other", true],
        ["rig", 1, "other", true],
        ["rig", 2, "other", true],
      ],
    );
    const prefix = "Rig setup operation failed but continuing (allowFailure=true): ";
    assert.deepEqual(
      payloads(events, "error")
        .filter((e) => !e.fatal && e.code !== "data-source-changed")
        .map((e) => e.message),
      [
        `${prefix}Target path "link/file.txt" would write outside execution directory: "link" is a symlink`,
        `${prefix}source path "assets/data.txt" passes through a symlink at "assets/data.txt"; symlinks are not allowed in hank refs`,
        `${prefix}copy source "tree" contains a symlink at "tree/sub/inner"; symlinks are not allowed anywhere in a copied tree`,
      ],
    );
    // The hank directory is also the data source: the planted links there are reported as a change.
    assert.deepEqual(
      payloads(events, "error")
        .filter((e) => e.code === "data-source-changed")
        .map((e) => e.codon),
      ["plant"],
    );
    // Copying onto the planted link replaces the link; the directory it pointed to is not touched.
    assert.equal(readFileSync(join(layout.agentRoot, "link"), "utf8"), "one");
    assert.equal(existsSync(join(layout.agentRoot, "data.txt")), false);
    assert.equal(existsSync(join(layout.agentRoot, "tree-copy")), false);
    assertUntouched(outside);
  });

  it("copies and archives planted links as links, and never archives .hankweave", () => {
    assert.equal(lstatSync(join(out, "leak.txt")).isSymbolicLink(), true, "the output is the link itself");
    const archived = join(layout.executionDir, "rigArchive", "archive", "leak.txt");
    assert.equal(readlinkSync(archived), join(outside, "secret.txt"), "archived as a link");
    assert.equal(existsSync(join(layout.agentRoot, "leak.txt")), false);
    assert.equal(readFileSync(join(layout.agentRoot, ".hankweave", "state.json"), "utf8"), "{}");
    assert.equal(existsSync(join(layout.executionDir, "rigArchive", "archive", ".hankweave")), false);
    assertUntouched(outside);
  });

  it("never archives a .git directory", () => {
    assert.equal(readFileSync(join(layout.agentRoot, ".git", "config"), "utf8"), "[core]");
    assert.equal(existsSync(join(layout.executionDir, "rigArchive", "archive", ".git")), false);
  });
});
