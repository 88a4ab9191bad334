import assert from "node:assert/strict";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { writeArchive } from "../../src/bundle/archive.ts";
import { bundleHashOf, type HankLock, LOCK_FILE, lockText, sha256Hex } from "../../src/bundle/lock.ts";
import { buildBundle, type PackPlan, planPack } from "../../src/bundle/pack.ts";
import { resolveHankLocation } from "../../src/bundle/resolve-location.ts";
import { runCli } from "../fixtures/hankweave-cli.ts";
import { writeHank } from "../workspace/support.ts";

/**
 * Item: a decompression bomb. A hank with a 128 MiB file of zeros (pack allows up to 1 GiB a file)
 * makes a bundle of a few kilobytes. Reading it must refuse before decompressing: nothing may be
 * written to the cache, and the message names the bundle, the sizes and the fix. `pack` refuses to
 * write a bundle that reading would refuse, and `--validate` of a bundle writes nothing to the cache.
 */

const ZEROS = 128 * 1024 ** 2;

/** The bundle `pack` would have written before it refused such bundles: the same archive, unchecked. */
async function bombOf(plan: PackPlan): Promise<Buffer> {
  const files: HankLock["files"] = {};
  const members = plan.members.map((member) => {
    const bytes = readFileSync(member.absolute);
    files[member.name] = { mode: "644", sha256: sha256Hex(bytes) };
    return { name: member.name, mode: 0o644, bytes };
  });
  const runtime = { min: "0.0.1" };
  const bundleHash = bundleHashOf(files, runtime);
  const lock: HankLock = {
    v: 1,
    name: "bomb",
    version: "1",
    bundleHash,
    files,
    codonInputs: {},
    runtime,
    ignoreDefaults: [],
  };
  const text = Buffer.from(lockText(lock), "utf8");
  return writeArchive([{ name: LOCK_FILE, mode: 0o644, bytes: text }, ...members]);
}

describe("a bundle that decompresses to far more than its size", () => {
  const root = mkdtempSync(join(tmpdir(), "hw-bundle-bomb-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("is refused from its headers, and nothing is written to the cache", async () => {
    const hankDir = writeHank(join(root, "hank"), [
      { id: "a", name: "A", model: "scripted", continuationMode: "fresh", promptText: "@say hi" },
    ]);
    const data = join(hankDir, "zeros.bin");
    writeFileSync(data, "");
    truncateSync(data, ZEROS);
    const plan = planPack(hankDir, root, {});
    assert.ok(typeof plan !== "string" && plan.errors.length === 0, JSON.stringify(plan));
    await assert.rejects(
      buildBundle(plan, "0.0.1"),
      /the bundle would be refused when read: it would decompress to 128\.\d MiB/,
    );
    const bundle = join(root, "bomb.hank");
    writeFileSync(bundle, await bombOf(plan));

    const cache = join(root, "cache");
    const resolved = await resolveHankLocation(bundle, {
      env: { HANKWEAVE_RUNTIME_CACHE_DIR: cache },
      version: "9.9.9",
    });
    assert.equal(resolved.ok, false, JSON.stringify(resolved));
    const message = resolved.ok ? "" : resolved.message;
    assert.equal(message.split("\n").length, 1);
    assert.match(
      message,
      /^Error: .*bomb\.hank: it would decompress to 128\.\d MiB from \d+ bytes \(\d+ times its size, a decompression bomb\); nothing was decompressed\. Re-create it with `hankweave pack`/,
    );
    assert.equal(existsSync(cache) && readdirSync(cache, { recursive: true }).length > 0, false);
  });

  it("--validate of a bundle leaves the cache as it is", async () => {
    const hankDir = writeHank(join(root, "small"), [
      { id: "a", name: "A", model: "scripted", continuationMode: "fresh", promptText: "@say hi" },
    ]);
    const plan = planPack(hankDir, root, {});
    assert.ok(typeof plan !== "string");
    const bundle = join(root, "small.hank");
    writeFileSync(bundle, (await buildBundle(plan, "0.0.1")).bytes);
    const cache = join(root, "validate-cache");
    const result = await runCli(["--validate", bundle], { env: { HANKWEAVE_RUNTIME_CACHE_DIR: cache } });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.equal(existsSync(cache), false, "the cache was written");
  });
});
