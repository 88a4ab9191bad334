import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseGitLocation } from "../../src/bundle/git-location.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import { captureIo } from "./capture-io.ts";

const EXAMPLE = join(import.meta.dirname, "..", "..", "examples", "revise-loop");

/** Remote hank locations, never the internet: a bundle served on 127.0.0.1 and a local bare repository. */
describe("remote hank locations", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-remote-"));
  const env = {
    HANKWEAVE_RUNTIME_CACHE_DIR: join(root, "cache"),
    HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(root, "executions"),
  };
  let server: Server;
  let base = "";
  before(async () => {
    const { io, err } = captureIo(root, env);
    assert.equal(await runCli(["pack", EXAMPLE, "-o", join(root, "served.hank"), "--no-lock"], io), 0, err());
    server = createServer((request, response) => {
      if (request.url !== "/served.hank") return void response.writeHead(404).end();
      response.writeHead(200).end(readFileSync(join(root, "served.hank")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("fetches a bundle URL, verifies it and validates the hank, leaving the cache as it is", async () => {
    const { io, out, err } = captureIo(root, env);
    assert.equal(await runCli([`${base}/served.hank`, "--validate", "-m", "scripted"], io), 0, out() + err());
    assert.doesNotMatch(err(), /Extracted to/);
    assert.match(err(), /✓ Verified bundle .* \(bundleHash [0-9a-f]{12}\)/);
    assert.equal(
      existsSync(join(root, "cache", "bundles")),
      false,
      "--validate creates nothing in the cache",
    );
    const missing = captureIo(root, env);
    assert.equal(await runCli([`${base}/gone.hank`, "--validate"], missing.io), 1);
    assert.match(missing.err(), /^Error: Failed to fetch remote hank: .*gone\.hank: HTTP 404\./);
  });

  it("clones a git+file:// repository at a branch and folder, and holds it to a committed hank.lock", async () => {
    const work = join(root, "work");
    const git = (...args: string[]) => execFileSync("git", ["-C", work, ...args], { stdio: "pipe" });
    cpSync(EXAMPLE, join(work, "hanks", "revise"), { recursive: true });
    const packed = captureIo(root, env);
    assert.equal(
      await runCli(["pack", join(work, "hanks", "revise"), "-o", join(root, "x.hank")], packed.io),
      0,
    );
    git("init", "-q", "-b", "release");
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "hank");
    const bare = join(root, "repo.git");
    execFileSync("git", ["clone", "-q", "--bare", work, bare], { stdio: "pipe" });
    const location = `git+file://${bare}#release/hanks/revise`;
    const run = captureIo(root, env);
    assert.equal(await runCli([location, "-m", "scripted", "--headless"], run.io), 0, run.err());
    assert.match(run.err(), /✓ Cloned file:\/\/.*repo\.git at [0-9a-f]{12}/);
    const again = captureIo(root, env);
    assert.equal(await runCli([location, "--validate", "-m", "scripted"], again.io), 0);
    assert.match(again.err(), /Reusing clone of/);
    // A commit that changes a prompt without re-packing: the committed lock no longer matches.
    writeFileSync(join(work, "hanks", "revise", "prompts", "draft.md"), "changed\n");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "edit");
    execFileSync("git", ["-C", work, "push", "-q", bare, "release"], { stdio: "pipe" });
    const refused = captureIo(root, env);
    assert.equal(await runCli([location, "--validate"], refused.io), 1);
    assert.match(refused.err(), /the files do not match the committed hank\.lock/);
  });

  it("reads the reference's git location forms", () => {
    assert.deepEqual(parseGitLocation("https://github.com/acme/hanks/tree/v2/review"), {
      cloneUrl: "https://github.com/acme/hanks.git",
      ref: "v2",
      path: "review",
    });
    assert.deepEqual(parseGitLocation("git@github.com:acme/hanks.git#main"), {
      cloneUrl: "git@github.com:acme/hanks.git",
      ref: "main",
      path: "",
    });
    assert.equal(parseGitLocation("https://example.com/x.hank"), undefined);
  });
});
