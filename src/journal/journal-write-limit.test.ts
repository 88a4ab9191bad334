import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const WRITER = fileURLToPath(new URL("./journal-writer.ts", import.meta.url));

/**
 * The child appends a record of about 1,100 bytes (multibyte text: more bytes than UTF-16 units), then
 * one of about 2,000 bytes, under a 2 KiB file-size limit (`ulimit -f 2`): the kernel takes part of the
 * second line (a short write), then refuses the rest with EFBIG. Node ignores SIGXFSZ, so the error
 * reaches the writer.
 */
const CHILD = `
const { JournalWriter } = await import(${JSON.stringify(WRITER)});
const writer = JournalWriter.open(process.argv[1]);
writer.append({ type: "info", data: { message: "é✓".repeat(200) } });
try {
  writer.append({ type: "info", data: { message: "x".repeat(2000) } });
  console.log("appended");
} catch (error) {
  console.log(error.code);
}
writer.append({ type: "info", data: { message: "short" } });
writer.close();
`;

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hankweave-journal-limit-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("a journal write the file-size limit cuts short", () => {
  it("continues a short write, then cuts the file back to its last whole line, counted in bytes", () => {
    const path = join(dir, "events.jsonl");
    const child = spawnSync(
      "bash",
      [
        "-c",
        'ulimit -f 2 && exec "$0" --import tsx --input-type=module -e "$1" "$2"',
        process.execPath,
        CHILD,
        path,
      ],
      { encoding: "utf8" },
    );
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), "EFBIG");
    const lines = readFileSync(path, "utf8").split("\n");
    assert.equal(lines.at(-1), "", "the file ends with a whole line");
    const records = lines
      .slice(0, -1)
      .map((line) => JSON.parse(line) as { seq: number; data: { message: string } });
    assert.deepEqual(
      records.map((r) => [r.seq, r.data.message.slice(0, 4)]),
      [
        [1, "é✓é✓"],
        [2, "shor"],
      ],
    );
  });
});
