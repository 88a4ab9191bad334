import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "node:test";
import { cliEnvironment, REPO_ROOT } from "../fixtures/hankweave-cli.ts";
import { codon, hankOf } from "../server/support.ts";

const hasScript = spawnSync("script", ["--version"]).status === 0;

/** Quotes a word for `sh -c`. */
const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

it("the CLI on a terminal draws the TUI, and q stops the run and exits 0", {
  skip: !hasScript && "util-linux script is not installed",
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "hw-pty-"));
  try {
    const hankDir = join(dir, "hank");
    mkdirSync(hankDir);
    writeFileSync(
      join(hankDir, "hank.json"),
      JSON.stringify(hankOf([codon("a", "@say hello"), codon("hold", "@sleep 600000")])),
    );
    const command = [
      "stty cols 100 rows 40;",
      "exec",
      quote(process.execPath),
      "--import tsx",
      quote(join(REPO_ROOT, "src", "cli", "main.ts")),
      quote(join(hankDir, "hank.json")),
      "-m scripted -e",
      quote(join(dir, "exec")),
    ].join(" ");
    const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
      cwd: REPO_ROOT,
      env: cliEnvironment({ HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(dir, "executions") }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let pressed = false;
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const bound = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (!pressed && /> hold HOLD/.test(output)) {
        pressed = true;
        child.stdin.write("q");
      }
    });
    const code = await exited;
    clearTimeout(bound);
    assert.equal(pressed, true, `the TUI never showed the running codon:\n${output}`);
    assert.equal(code, 0, output);
    assert.match(output, /n {2}next {5}s {2}skip {5}r {2}roll back {5}q {2}quit/);
    assert.match(output, /✓ a A /);
    assert.match(output, /Run Aborted/);
    assert.match(output, /Resume {5}hankweave --execution .*exec/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
