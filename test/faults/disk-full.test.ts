import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cliSandbox } from "../crash/bundled-cli.ts";
import { cliEnvironment } from "../fixtures/hankweave-cli.ts";
import { codon, writeHank } from "../workspace/support.ts";

/**
 * Items 1 and 7 under a disk that fills: each codon's rig writes 64 KiB that do not compress (so the
 * checkpoint store grows as much) and a line of `trail.txt`. The execution lives on a real tmpfs of a
 * given size, mounted in a mount namespace of the CLI's own (`unshare -rm`: no privilege needed where
 * user namespaces are allowed; the mount ends with the process, nothing to clean up). At each size the
 * disk fills at another point (the agent's file, a checkpoint, the journal, the snapshot). The first
 * run ends completed or with one line naming ENOSPC; after the tmpfs is grown (as a user frees space)
 * the same command completes, and the workspace holds every codon's work exactly once.
 */

const CHUNK = 65_536;
const SIZES_KIB = [120, 190, 260, 330, 420];

function tmpfsWorks(): boolean {
  const dir = mkdtempSync(join(tmpdir(), "hw-tmpfs-probe-"));
  const probe = spawnSync("unshare", ["-rm", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs '${dir}'`]);
  return probe.status === 0;
}

/**
 * The work is the codon's rig command, so a write the full disk refuses fails the codon (an agent's
 * failed command is only an error result for the agent) and the restart does it again.
 */
const codonWriting = (id: string) =>
  codon(id, `@say ${id} done`, {
    checkpointedFiles: ["**"],
    rigSetup: [
      {
        type: "command",
        command: { run: `head -c ${CHUNK} /dev/urandom > ${id}.bin && echo ${id} >> trail.txt` },
      },
    ],
  });

/**
 * The same work done by the agent (no rig, so no rig-setup checkpoint to stop the walk back): at these
 * sizes the disk fills while b's `completed` checkpoint is written, after b finished. The restart must
 * keep b's files (b does not run again): before the fix it put the workspace back to a's checkpoint,
 * and `b.bin` and b's line of `trail.txt` were gone.
 */
const agentWriting = (id: string) =>
  codon(id, `@run head -c ${CHUNK} /dev/urandom > ${id}.bin\n@append trail.txt ${id}`, {
    checkpointedFiles: ["**"],
  });

const SCENARIOS = [
  { name: "rig writes", codonOf: codonWriting, sizes: SIZES_KIB },
  { name: "agent writes, b's end checkpoint hits the full disk", codonOf: agentWriting, sizes: [300, 320] },
];

const SKIP = tmpfsWorks() ? false : "unshare -rm cannot mount a tmpfs here";

for (const scenario of SCENARIOS) describeScenario(scenario);

function describeScenario(scenario: (typeof SCENARIOS)[number]): void {
  describe(`a disk that fills during a run: ${scenario.name}`, { skip: SKIP }, () => {
    const { box, bin } = cliSandbox("disk-full");
    const hank = writeHank(join(box.root, "hank"), ["a", "b", "c"].map(scenario.codonOf));

    for (const size of scenario.sizes) {
      it(`${size} KiB: a one-line ENOSPC, then the same command completes with nothing lost`, () => {
        const mount = join(box.root, `mnt-${size}`);
        const out = join(box.root, `out-${size}`);
        mkdirSync(mount);
        mkdirSync(out);
        const run = (name: string) =>
          `'${process.execPath}' '${bin()}' '${hank}' --headless -e '${mount}/exec' > '${out}/${name}.out' 2>&1; echo $? > '${out}/${name}.code'`;
        const script = [
          `mount -t tmpfs -o size=${size}k tmpfs '${mount}'`,
          run("first"),
          `mount -o remount,size=64m '${mount}'`,
          run("again"),
          `cp -r '${mount}/exec/agentRoot' '${out}/agentRoot'`,
        ].join(" && ");
        const done = spawnSync("unshare", ["-rm", "sh", "-c", script], {
          env: cliEnvironment({}),
          encoding: "utf8",
          timeout: 120_000,
        });
        assert.equal(done.status, 0, done.stderr);
        const first = readFileSync(join(out, "first.out"), "utf8");
        const again = readFileSync(join(out, "again.out"), "utf8");
        const firstCode = readFileSync(join(out, "first.code"), "utf8").trim();
        assert.doesNotMatch(first + again, /^\s+at /m, "no stack trace");
        if (firstCode !== "0") {
          assert.equal(firstCode, "1", first);
          const fault = first.split("\n").filter((line) => line.startsWith("✗ Cannot"));
          assert.equal(fault.length, 1, first);
          assert.match(fault[0] ?? "", /: no space left on the device \(ENOSPC\)\. Free space on the disk/);
        }
        assert.equal(readFileSync(join(out, "again.code"), "utf8").trim(), "0", again);
        const workspace = join(out, "agentRoot");
        assert.equal(readFileSync(join(workspace, "trail.txt"), "utf8"), "a\nb\nc\n", `${first}\n${again}`);
        for (const id of ["a", "b", "c"])
          assert.equal(statSync(join(workspace, `${id}.bin`)).size, CHUNK, id);
      });
    }
  });
}
