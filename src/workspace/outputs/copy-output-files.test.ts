import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import type { OutputFileGroup } from "../../hank/schema/index.ts";
import { createFakeClock } from "../process/test-support.ts";
import { copyOutputFiles } from "./copy-output-files.ts";
import type { CopyOutputFilesInput, OutputEvent } from "./output-types.ts";
import { FIXED_MS, listTree, TEST_PATH, type WorkspaceFixture, workspaceFixture } from "./test-support.ts";

let fx: WorkspaceFixture;
beforeEach(() => {
  fx = workspaceFixture();
});
afterEach(() => fx.remove());

function copy(groups: OutputFileGroup[], extra: Partial<CopyOutputFilesInput> = {}, signal?: AbortSignal) {
  const events: OutputEvent[] = [];
  const run = copyOutputFiles(
    {
      codonId: "write",
      groups,
      agentRoot: fx.agentRoot,
      outputDir: fx.outputDir,
      overwrite: false,
      env: { PATH: TEST_PATH },
      ...extra,
    },
    {
      clock: createFakeClock(FIXED_MS + 999),
      signal: signal ?? new AbortController().signal,
      emit: (e) => events.push(e),
    },
  );
  return run.then((result) => ({ result, messages: events.map((e) => e.data.message) }));
}

const cmd = (run: string) => ({ type: "command" as const, command: { run } });

test("scenario 17: a copied file, then a second codon's file of the same name renamed", async () => {
  fx.write(fx.agentRoot, "report.md", "first");
  const first = await copy([{ copy: ["report.md"] }]);
  assert.deepEqual(first.result, {
    ok: true,
    aborted: false,
    copied: [{ from: "report.md", to: "report.md" }],
    renamed: [],
    problems: [],
    failure: null,
  });
  assert.deepEqual(first.messages, [`Copied 1 output file for codon 'write' to ${fx.outputDir}`]);

  fx.write(fx.agentRoot, "report.md", "second");
  const second = await copy([{ copy: ["report.md"] }], { codonId: "revise" });
  assert.deepEqual(second.result.copied, [{ from: "report.md", to: "report_1_1700000000.md" }]);
  assert.deepEqual(second.result.renamed, [{ intended: "report.md", to: "report_1_1700000000.md" }]);
  assert.deepEqual(second.messages, [
    `Output file "report.md" already exists in ${fx.outputDir}; copied as "report_1_1700000000.md"`,
    `Copied 1 output file for codon 'revise' to ${fx.outputDir}`,
  ]);
  const third = await copy([{ copy: ["report.md"] }]);
  assert.deepEqual(third.result.renamed, [{ intended: "report.md", to: "report_2_1700000000.md" }]);
  assert.equal(readFileSync(join(fx.outputDir, "report.md"), "utf8"), "first");
  assert.equal(readFileSync(join(fx.outputDir, "report_1_1700000000.md"), "utf8"), "second");
  assert.deepEqual(listTree(fx.outputDir), ["report.md", "report_1_1700000000.md", "report_2_1700000000.md"]);
});

test("scenario 17 with --overwrite-output: the existing file is replaced", async () => {
  fx.write(fx.outputDir, "report.md", "old");
  fx.write(fx.agentRoot, "report.md", "new");
  const { result } = await copy([{ copy: ["report.md"] }], { overwrite: true });
  assert.equal(result.ok, true);
  assert.deepEqual(result.renamed, []);
  assert.deepEqual(listTree(fx.outputDir), ["report.md"]);
  assert.equal(readFileSync(join(fx.outputDir, "report.md"), "utf8"), "new");
});

test("scenario 17: a failing beforeCopy is a failure, and nothing after it runs or is copied", async () => {
  fx.write(fx.agentRoot, "report.md", "x");
  const { result, messages } = await copy([
    { copy: ["report.md"], beforeCopy: [cmd("echo oops; exit 3"), cmd("touch never.txt")] },
    { copy: ["report.md"] },
  ]);
  assert.deepEqual(result, {
    ok: false,
    aborted: false,
    copied: [],
    renamed: [],
    problems: [],
    failure: {
      kind: "before-copy",
      groupIndex: 0,
      message: "beforeCopy command failed with exit code 3: echo oops; exit 3",
      exitCode: 3,
      outputTail: ["oops"],
    },
  });
  assert.deepEqual(messages, ["Running beforeCopy command 1/2 for codon 'write': echo oops; exit 3"]);
  assert.equal(existsSync(join(fx.agentRoot, "never.txt")), false);
  assert.equal(existsSync(join(fx.outputDir, "report.md")), false);
});

test("beforeCopy runs in agentRoot with the codon's environment, before its group is resolved", async () => {
  const { result } = await copy(
    [
      {
        copy: ["made/*.txt"],
        beforeCopy: [cmd('mkdir made && { echo "$GREETING"; pwd; } > made/hello.txt')],
      },
    ],
    { env: { PATH: TEST_PATH, GREETING: "hi" } },
  );
  assert.deepEqual(result.copied, [{ from: "made/hello.txt", to: "made/hello.txt" }]);
  assert.equal(readFileSync(join(fx.outputDir, "made", "hello.txt"), "utf8"), `hi\n${fx.agentRoot}\n`);
});

test("globs keep relative paths, take links as links, and a glob matching nothing is only reported", async () => {
  fx.write(fx.agentRoot, "docs/guide/intro.md", "intro");
  fx.write(fx.agentRoot, "docs/notes.txt", "notes");
  fx.write(fx.agentRoot, "src/main.ts", "code");
  symlinkSync("guide/intro.md", join(fx.agentRoot, "docs", "latest.md"));
  const { result, messages } = await copy([{ copy: ["docs/**/*.md", "src", "missing/*.pdf"] }]);
  assert.equal(result.ok, true);
  assert.deepEqual(result.copied, [
    { from: "docs/guide/intro.md", to: "docs/guide/intro.md" },
    { from: "docs/latest.md", to: "docs/latest.md" },
    { from: "src/main.ts", to: "src/main.ts" },
  ]);
  assert.equal(readlinkSync(join(fx.outputDir, "docs", "latest.md")), "guide/intro.md");
  assert.deepEqual(result.problems, [
    {
      kind: "no-match",
      groupIndex: 0,
      subject: "missing/*.pdf",
      message: 'Output pattern "missing/*.pdf" matched no files in agentRoot',
    },
  ]);
  assert.deepEqual(messages, [
    'Output pattern "missing/*.pdf" matched no files in agentRoot',
    `Copied 3 output files for codon 'write' to ${fx.outputDir}`,
  ]);
});

test("the data link, rigArchive and .hankweave are never copied; naming them is reported", async () => {
  const data = join(fx.root, "data");
  fx.write(data, "input.csv", "a,b");
  symlinkSync(data, join(fx.agentRoot, "read_only_data_source"));
  fx.write(fx.agentRoot, ".hankweave/state.json", "{}");
  fx.write(fx.agentRoot, "rigArchive/old.txt", "");
  fx.write(fx.agentRoot, "result.txt", "r");
  const all = await copy([{ copy: ["**"] }]);
  assert.deepEqual(all.result.copied, [{ from: "result.txt", to: "result.txt" }]);
  assert.deepEqual(all.result.problems, []);
  const named = await copy([{ copy: ["read_only_data_source/*.csv"] }]);
  assert.deepEqual(
    named.result.problems.map((p) => p.message),
    [
      'Output pattern "read_only_data_source/*.csv" matched no files in agentRoot',
      'Not copying "read_only_data_source": it is the read-only link to the input data',
    ],
  );
  // A glob that names .hankweave (or .git) is refused outright, before anything is copied.
  const reserved = await copy([{ copy: [".hankweave/**"] }]);
  assert.equal(reserved.result.ok, false);
  assert.equal(reserved.result.failure?.kind, "invalid-glob");
  assert.match(reserved.result.failure?.message ?? "", /names "\.hankweave"/);
  assert.deepEqual(listTree(fx.outputDir), ["result.txt"]);
});

test("attack: a glob with '..' is refused before any command runs", async () => {
  fx.write(fx.root, "secret.txt", "s");
  const { result } = await copy([
    { copy: ["notes.md"], beforeCopy: [cmd("touch ran.txt")] },
    { copy: ["../secret.txt"] },
  ]);
  assert.deepEqual(result.failure, {
    kind: "invalid-glob",
    groupIndex: 1,
    message:
      'Invalid outputFiles pattern for codon \'write\': "../secret.txt" contains a ".." segment; workspace paths may not leave agentRoot',
  });
  assert.equal(existsSync(join(fx.agentRoot, "ran.txt")), false);
  assert.equal(existsSync(fx.outputDir), false);
});

test("attack: a symlink in agentRoot pointing outside is copied as a link, never followed", async () => {
  fx.write(fx.outside, "private/key.pem", "KEY");
  symlinkSync(join(fx.outside, "private"), join(fx.agentRoot, "leak"));
  const below = await copy([{ copy: ["leak/**"] }]);
  assert.deepEqual(below.result.copied, []);
  assert.deepEqual(
    below.result.problems.map((p) => p.message),
    [
      'Output pattern "leak/**" matched no files in agentRoot',
      'Not copying "leak": it is a symbolic link, which is never followed',
    ],
  );
  const link = await copy([{ copy: ["leak"] }]);
  assert.deepEqual(link.result.copied, [{ from: "leak", to: "leak" }]);
  assert.equal(lstatSync(join(fx.outputDir, "leak")).isSymbolicLink(), true);
  assert.deepEqual(listTree(fx.outputDir), ["leak"]);
});

test("attack: a link in the output directory is never written through", async () => {
  mkdirSync(fx.outputDir);
  symlinkSync(fx.outside, join(fx.outputDir, "docs"));
  fx.write(fx.agentRoot, "docs/a.md", "a");
  const { result } = await copy([{ copy: ["docs/a.md"] }]);
  assert.deepEqual(result.failure, {
    kind: "copy",
    groupIndex: 0,
    message: `Failed to copy output file "docs/a.md" to ${fx.outputDir}: "docs" is a symbolic link; refusing to write through it`,
  });
  assert.deepEqual(listTree(fx.outside), []);
});

test("overwrite replaces a link in the way instead of writing through it", async () => {
  mkdirSync(fx.outputDir);
  fx.write(fx.outside, "target.txt", "untouched");
  symlinkSync(join(fx.outside, "target.txt"), join(fx.outputDir, "report.md"));
  fx.write(fx.agentRoot, "report.md", "new");
  const { result } = await copy([{ copy: ["report.md"] }], { overwrite: true });
  assert.equal(result.ok, true);
  assert.equal(lstatSync(join(fx.outputDir, "report.md")).isFile(), true);
  assert.equal(readFileSync(join(fx.outputDir, "report.md"), "utf8"), "new");
  assert.equal(readFileSync(join(fx.outside, "target.txt"), "utf8"), "untouched");
});

test("a file matched by several groups of one call is copied once", async () => {
  fx.write(fx.agentRoot, "README.md", "r");
  fx.write(fx.agentRoot, "CHANGES.md", "c");
  const { result } = await copy([{ copy: ["*.md"] }, { copy: ["README.md"] }]);
  assert.deepEqual(result.copied, [
    { from: "CHANGES.md", to: "CHANGES.md" },
    { from: "README.md", to: "README.md" },
  ]);
});

test("an abort before copying stops with aborted and no failure", async () => {
  fx.write(fx.agentRoot, "report.md", "x");
  const controller = new AbortController();
  controller.abort();
  const { result } = await copy([{ copy: ["report.md"], beforeCopy: [cmd("true")] }], {}, controller.signal);
  assert.deepEqual(result, {
    ok: false,
    aborted: true,
    copied: [],
    renamed: [],
    problems: [],
    failure: null,
  });
});

test("no groups: nothing happens; a relative output directory is a bug", async () => {
  const none = await copy([]);
  assert.deepEqual(none.result.copied, []);
  assert.deepEqual(none.messages, []);
  assert.equal(existsSync(fx.outputDir), false);
  await assert.rejects(copy([{ copy: ["x"] }], { outputDir: "out" }), /outputDir must be absolute/);
});

test("an abort arriving as a beforeCopy command is announced: the command never runs, nothing is copied", async () => {
  fx.write(fx.agentRoot, "report.md", "x");
  const controller = new AbortController();
  const result = await copyOutputFiles(
    {
      codonId: "write",
      groups: [{ copy: ["report.md"], beforeCopy: [cmd("sleep 30 & wait")] }],
      agentRoot: fx.agentRoot,
      outputDir: fx.outputDir,
      overwrite: false,
      env: { PATH: TEST_PATH },
    },
    { clock: createFakeClock(FIXED_MS), signal: controller.signal, emit: () => controller.abort() },
  );
  assert.deepEqual(result, {
    ok: false,
    aborted: true,
    copied: [],
    renamed: [],
    problems: [],
    failure: null,
  });
  assert.equal(existsSync(join(fx.outputDir, "report.md")), false);
});
