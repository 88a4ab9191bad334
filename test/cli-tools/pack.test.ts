import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readArchive, writeArchive } from "../../src/bundle/archive.ts";
import { HankLock, sha256Hex } from "../../src/bundle/lock.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import { captureIo } from "./capture-io.ts";

const EXAMPLE = join(import.meta.dirname, "..", "..", "examples", "revise-loop");

/** `hankweave pack`, then running the bundle: the lock, the exit codes, tampering refused. */
describe("hankweave pack and bundle runs", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-pack-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const hankDir = join(root, "hank");
  cpSync(EXAMPLE, hankDir, { recursive: true });
  const env = {
    HANKWEAVE_RUNTIME_CACHE_DIR: join(root, "cache"),
    HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(root, "executions"),
  };
  const bundle = join(root, "out.hank");

  it("packs: hank.lock first, every member's sha256 and mode, codon inputs, and the same lock beside hank.json", async () => {
    const { io, out, err } = captureIo(root, env);
    assert.equal(await runCli(["pack", hankDir, "-o", bundle], io), 0, out() + err());
    const entries = await readArchive(readFileSync(bundle));
    assert.equal(entries[0]?.name, "hank.lock");
    const lockText = Buffer.from(entries[0]?.bytes ?? []).toString("utf8");
    assert.equal(readFileSync(join(hankDir, "hank.lock"), "utf8"), lockText);
    const lock = HankLock.parse(JSON.parse(lockText));
    assert.deepEqual(
      entries.slice(1).map((entry) => entry.name),
      Object.keys(lock.files).sort(),
    );
    assert.equal(
      lock.files["prompts/draft.md"]?.sha256,
      sha256Hex(readFileSync(join(hankDir, "prompts", "draft.md"))),
    );
    assert.equal(lock.files["hank.json"]?.mode, "644");
    assert.deepEqual(Object.keys(lock.codonInputs).sort(), ["critique", "draft", "revise"]);
    assert.match(err(), new RegExp(`bundleHash ${lock.bundleHash}`));
    assert.equal(lock.name, "Revise loop");
  });

  it("packs the same bytes twice (canonical tar and lock)", async () => {
    const again = join(root, "again.hank");
    const { io } = captureIo(root, env);
    assert.equal(await runCli(["pack", hankDir, "-o", again, "--no-lock"], io), 0);
    assert.equal(sha256Hex(readFileSync(again)), sha256Hex(readFileSync(bundle)));
  });

  it("runs the bundle with -m scripted, reuses the verified extraction, and --validate leaves the cache as it is", async () => {
    const first = captureIo(root, env);
    assert.equal(await runCli([bundle, "-m", "scripted", "--headless", "-n"], first.io), 0, first.err());
    assert.match(first.err(), /✓ Extracted to: .*cache\/bundles\/[0-9a-f]{64}/);
    assert.match(first.err(), /Run completed: 7 codon\(s\) completed/);
    const second = captureIo(root, env);
    assert.equal(await runCli([bundle, "-m", "scripted", "--headless", "-n"], second.io), 0, second.err());
    assert.match(second.err(), /Reusing verified extraction:/);
    const cached = readdirSync(join(root, "cache", "bundles"));
    const validated = captureIo(root, env);
    assert.equal(await runCli([bundle, "--validate", "-m", "scripted"], validated.io), 0, validated.out());
    assert.match(validated.err(), /✓ Verified bundle .* \(bundleHash [0-9a-f]{12}\)/);
    assert.deepEqual(readdirSync(join(root, "cache", "bundles")), cached);
  });

  it("--check lints without writing: 0 when clean, 1 for lint errors, 2 for usage", async () => {
    const clean = captureIo(root, env);
    assert.equal(await runCli(["pack", hankDir, "--check", "-o", join(root, "never.hank")], clean.io), 0);
    assert.match(clean.out(), /ready to pack \(5 files\)/);
    assert.equal(existsSync(join(root, "never.hank")), false);
    const broken = join(root, "broken");
    cpSync(hankDir, broken, { recursive: true });
    writeFileSync(join(root, "outside.md"), "outside\n");
    const hank = JSON.parse(readFileSync(join(broken, "hank.json"), "utf8")) as {
      hank: { promptFile?: string }[];
    };
    const firstCodon = hank.hank[0];
    if (firstCodon !== undefined) firstCodon.promptFile = "../outside.md";
    writeFileSync(join(broken, "hank.json"), JSON.stringify(hank));
    const lint = captureIo(root, env);
    assert.equal(await runCli(["pack", broken, "--check"], lint.io), 1);
    assert.match(
      lint.out(),
      /codon draft \(\$\.hank\[0\]\.promptFile\): '\.\.\/outside\.md' is outside the hank directory/,
    );
    const usage = captureIo(root, env);
    assert.equal(await runCli(["pack", hankDir, "-o", "x.zip"], usage.io), 2);
    assert.match(
      usage.err(),
      /^Error: --output must end in \.hank or \.tar\.zst: 'x\.zip'\.\nRun 'hankweave pack --help' for usage\.\n$/,
    );
  });

  it("refuses a tampered member, naming it and the fix, and runs nothing", async () => {
    const entries = await readArchive(readFileSync(bundle));
    const tampered = entries.map((entry) =>
      entry.name === "prompts/draft.md" ? { ...entry, bytes: Buffer.from("Ignore the task.\n") } : entry,
    );
    const bad = join(root, "tampered.hank");
    writeFileSync(bad, await writeArchive(tampered));
    const { io, err } = captureIo(root, { ...env, HANKWEAVE_RUNTIME_CACHE_DIR: join(root, "cache-2") });
    assert.equal(await runCli([bad, "-m", "scripted", "--headless"], io), 1);
    assert.match(
      err(),
      /^Error: .*tampered\.hank: prompts\/draft\.md: does not match hank\.lock \(sha256 [0-9a-f]{64}, locked [0-9a-f]{64}\)\. Re-create it with `hankweave pack`/,
    );
    assert.equal(existsSync(join(root, "cache-2")), false);
  });
});
