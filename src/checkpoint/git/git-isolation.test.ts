import assert from "node:assert/strict";
import {
  appendFile,
  chmod,
  lstat,
  mkdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { codon, type Fixture, withFixture } from "../../testing/checkpoint-conformance/checkpoint-fixture.ts";
import { createGitCheckpointer } from "./git-checkpointer.ts";

/**
 * The checkpoint store lives inside the execution, where an agent can write. Config, attributes or
 * hooks planted there must not make the runtime's own git processes run anything, nor change what a
 * checkpoint records: the runtime's settings are given per command (they outrank the repository's) and
 * the store's own files are put back before git runs.
 */

const gitDirOf = (fx: Fixture): string => join(fx.dirs.stateDir, "store");
const make = (dirs: Fixture["dirs"]) =>
  createGitCheckpointer({ gitDir: join(dirs.stateDir, "store"), workTree: dirs.workTree, clock: dirs.clock });

async function plant(fx: Fixture, marker: string): Promise<void> {
  const gitDir = gitDirOf(fx);
  const script = join(fx.root, "planted.sh");
  await writeFile(script, `#!/bin/sh\necho "$0 $*" >> ${marker}\ncat\n`);
  await chmod(script, 0o755);
  const evil = [
    "[core]",
    `\tfsmonitor = ${script}`,
    `\tpager = ${script}`,
    `\teditor = ${script}`,
    "\texcludesFile = /nonexistent",
    "\tattributesFile = /nonexistent",
    "\tautocrlf = true",
    '[filter "evil"]',
    `\tclean = ${script}`,
    `\tsmudge = ${script}`,
    "\trequired = true",
    "[diff]",
    `\texternal = ${script}`,
    "",
  ].join("\n");
  await appendFile(join(gitDir, "config"), evil);
  await appendFile(join(gitDir, "hankweave.gitconfig"), evil);
  await appendFile(join(gitDir, "info", "attributes"), "* filter=evil\n");
  await writeFile(join(fx.dirs.workTree, ".gitattributes"), "* filter=evil text eol=crlf\n");
  await mkdir(join(gitDir, "hooks"), { recursive: true });
  for (const hook of ["post-index-change", "reference-transaction", "post-checkout", "pre-commit"]) {
    await writeFile(join(gitDir, "hooks", hook), `#!/bin/sh\necho hook ${hook} >> ${marker}\n`);
    await chmod(join(gitDir, "hooks", hook), 0o755);
  }
}

test("config, attributes and hooks planted in the store run nothing and change nothing", () =>
  withFixture(make, async (fx) => {
    const marker = join(fx.root, "ran.txt");
    const cp = fx.open();
    await cp.init();
    await cp.startRun("run-1");
    await fx.write("a.md", "one\ntwo\n");
    const first = await cp.commit(codon("c1", ["*.md"]));
    await plant(fx, marker);
    await fx.write("a.md", "one\ntwo\nthree\n");
    await fx.write("b.md", "new\n");
    const scanned = await cp.commit(codon("c2", ["*.md"]));
    await fx.write("c.md", "staged\n");
    const staged = await cp.commit(codon("c3", ["*.md"], { changedPaths: ["c.md", "a.md"] }));
    await cp.restore(first.sha, { globs: ["*.md"] });
    await cp.list("run-1");
    assert.equal(await readFile(marker, "utf8").catch(() => "nothing ran"), "nothing ran");
    assert.deepEqual(await cp.filesAt(staged.sha), ["a.md", "b.md", "c.md"]);
    assert.deepEqual(await cp.filesAt(scanned.sha), ["a.md", "b.md"]);
    assert.equal(await fx.read("a.md"), "one\ntwo\n", "restored byte for byte, no line-ending conversion");
    assert.equal(await fx.read("b.md"), undefined);
  }));

/**
 * Settings that change what git records or restores, planted in the store's config: with them, an
 * executable bit would go unrecorded, a symbolic link would come back as a file, and a file created
 * after the checkpoint under another case of a recorded name would survive a restore.
 */
test("core.fileMode, core.symlinks, core.ignoreCase and the stat settings planted in the store change nothing", () =>
  withFixture(make, async (fx) => {
    const cp = fx.open();
    await cp.init();
    await cp.startRun("run-1");
    await appendFile(
      join(gitDirOf(fx), "config"),
      "[core]\n\tfileMode = false\n\tsymlinks = false\n\tignoreCase = true\n\tignoreStat = true\n\tcheckStat = minimal\n\ttrustctime = false\n",
    );
    await fx.write("run.sh", "#!/bin/sh\n");
    await chmod(join(fx.dirs.workTree, "run.sh"), 0o755);
    await fx.write("target.md", "target\n");
    await symlink("target.md", join(fx.dirs.workTree, "link.md"));
    await fx.write("notes.md", "first\n");
    const first = await cp.commit(codon("c1", ["**"]));
    await chmod(join(fx.dirs.workTree, "run.sh"), 0o644);
    await fx.write("notes.md", "later\n");
    await fx.write("NOTES.md", "created after the checkpoint\n");
    await cp.commit(codon("c2", ["**"]));
    await rm(join(fx.dirs.workTree, "link.md"));
    await cp.restore(first.sha, { globs: ["**"] });
    assert.equal((await stat(join(fx.dirs.workTree, "run.sh"))).mode & 0o777, 0o755, "the executable bit");
    assert.equal((await lstat(join(fx.dirs.workTree, "link.md"))).isSymbolicLink(), true, "the link");
    assert.equal(await readlink(join(fx.dirs.workTree, "link.md")), "target.md");
    assert.equal(await fx.read("notes.md"), "first\n");
    assert.equal(await fx.read("NOTES.md"), undefined, "a file created after the checkpoint");
  }));
