/**
 * Child process of `kill-during-pack.test.ts`: writes loose objects into the git store given on the
 * command line and packs them from this process (`packLooseObjects`), over and over, printing each
 * object's id once it is written. The test kills it at arbitrary moments.
 */
import { commitBody } from "../../src/checkpoint/git/commit-object.ts";
import { writeObject } from "../../src/checkpoint/git/loose-objects.ts";
import { packLooseObjects } from "../../src/checkpoint/git/pack-loose-objects.ts";

const [gitDir, label] = process.argv.slice(2);
if (gitDir === undefined || label === undefined) throw new Error("usage: pack-forever <gitDir> <label>");
const author = { identity: { name: "t", email: "t@example.invalid" }, now: Date.now() };
for (let round = 0; ; round++) {
  for (let i = 0; i < 20; i++) {
    const blob = writeObject(gitDir, "blob", Buffer.from(`${label} ${round} ${i}\n`)).id;
    const entry = Buffer.concat([Buffer.from("100644 file.txt\0", "latin1"), Buffer.from(blob, "hex")]);
    const tree = writeObject(gitDir, "tree", entry).id;
    const commit = writeObject(
      gitDir,
      "commit",
      commitBody(tree, undefined, author, `${label} ${round} ${i}\n`),
    );
    process.stdout.write(`${blob}\n${tree}\n${commit.id}\n`);
  }
  packLooseObjects(gitDir);
}
