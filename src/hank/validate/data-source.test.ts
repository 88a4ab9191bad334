import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { checkDataSource } from "./data-source.ts";
import { brief, codon, hankOf, run } from "./test-kit.ts";

const root = mkdtempSync(join(tmpdir(), "hankweave-data-source-"));
after(() => {
  chmodSync(join(root, "locked"), 0o755);
  rmSync(root, { recursive: true, force: true });
});
mkdirSync(join(root, "data"));
writeFileSync(join(root, "data.csv"), "a,b\n");
mkdirSync(join(root, "locked"));
chmodSync(join(root, "locked"), 0o000);
const runningAsRoot = process.getuid?.() === 0;

describe("the data source at validation", () => {
  it("accepts a readable directory or file", () => {
    assert.deepEqual(checkDataSource(join(root, "data")), []);
    assert.deepEqual(checkDataSource(join(root, "data.csv")), []);
  });

  it("reports a data path that does not exist, in the words the user typed, and fails validation", () => {
    const report = run(hankOf([codon("a")]), { dataPath: join(root, "dta"), dataShown: "dta" });
    assert.equal(report.ok, false);
    const issue = report.issues.find((i) => i.code === "data-not-found");
    assert.deepEqual(issue && brief(issue), {
      severity: "error",
      code: "data-not-found",
      path: [],
      message: "The data source dta does not exist.",
    });
    assert.equal(issue?.file, join(root, "dta"));
  });

  it("reports a directory that cannot be listed", { skip: runningAsRoot && "root reads everything" }, () => {
    const [issue] = checkDataSource(join(root, "locked"), "locked");
    assert.equal(issue?.code, "data-unreadable");
    assert.equal(issue?.message, "The data source locked cannot be read (EACCES).");
  });

  it("checks nothing when no data path is given (the run uses the hank's directory)", () => {
    assert.equal(run(hankOf([codon("a")])).ok, true);
  });
});
