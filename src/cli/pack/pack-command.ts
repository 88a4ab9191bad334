import fs from "node:fs";
import path from "node:path";
import { buildBundle, defaultBundleName, LOCK_FILE, type PackPlan, planPack } from "../../bundle/index.ts";
import type { CliIo } from "../cli-io.ts";
import { PACK_HELP, type PackOptions, parsePackArgs } from "./parse-pack-args.ts";

/** `hankweave pack`: findings to stdout, the tree and the bundleHash to stderr; exit 0, 1 or 2. */
export async function runPackCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parsePackArgs(argv, io.cwd);
  if (parsed.kind === "help") {
    io.stdout.write(PACK_HELP);
    return 0;
  }
  if (parsed.kind === "usage") {
    io.stderr.write(`Error: ${parsed.message}\nRun 'hankweave pack --help' for usage.\n`);
    return 2;
  }
  const { options } = parsed;
  const plan = planPack(options.target, io.cwd, io.env);
  if (typeof plan === "string") {
    io.stdout.write(`✗ ${plan}\n`);
    return 1;
  }
  for (const warning of plan.warnings) io.stdout.write(`! ${warning}\n`);
  for (const error of plan.errors) io.stdout.write(`✗ ${error}\n`);
  if (plan.errors.length > 0) {
    io.stdout.write(`${plan.errors.length} error(s): ${shown(plan.hankDir, io.cwd)} cannot be packed.\n`);
    return 1;
  }
  if (options.check) {
    io.stdout.write(`✓ ${shown(plan.hankPath, io.cwd)}: ready to pack (${plan.members.length} files).\n`);
    return 0;
  }
  try {
    return await writePack(plan, options, io);
  } catch (caught) {
    io.stderr.write(`Error: pack failed: ${caught instanceof Error ? caught.message : String(caught)}\n`);
    return 1;
  }
}

async function writePack(plan: PackPlan, options: PackOptions, io: CliIo): Promise<number> {
  const built = await buildBundle(plan, options.minRuntime ?? io.runtime.version);
  const output = options.output ?? path.join(io.cwd, defaultBundleName(plan.meta, plan.hankDir));
  atomicWrite(output, built.bytes);
  if (options.writeLock) atomicWrite(path.join(plan.hankDir, LOCK_FILE), Buffer.from(built.lockText, "utf8"));
  const lines = [
    `${LOCK_FILE}`,
    ...plan.members.map((member) => `${member.name}${member.executable ? " (755)" : ""}`),
  ];
  io.stderr.write(`${lines.map((line) => `  ${line}`).join("\n")}\n`);
  io.stderr.write(`bundleHash ${built.lock.bundleHash}\n`);
  io.stdout.write(
    `✓ Packed ${plan.members.length} files into ${shown(output, io.cwd)} (${built.bytes.byteLength} bytes).\n`,
  );
  return 0;
}

/** Temporary sibling, fsync, rename: a reader sees the old file or the whole new one. */
function atomicWrite(target: string, bytes: Buffer): void {
  const temporary = `${target}.tmp-${process.pid}`;
  const handle = fs.openSync(temporary, "w", 0o644);
  try {
    fs.writeFileSync(handle, bytes);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  fs.renameSync(temporary, target);
}

function shown(target: string, cwd: string): string {
  const relative = path.relative(cwd, target);
  return relative === "" ? "." : relative.startsWith("..") ? target : relative;
}
