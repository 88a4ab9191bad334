import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { FLAGS } from "./flags.ts";

const SRC = fileURLToPath(new URL("..", import.meta.url));

/** The folders whose messages talk to hankweave users; harness and git code name other tools' flags. */
const USER_FACING = ["hank", "cli", "runner", "engine", "workspace", "journal", "plan", "workflows"];

/**
 * Flags of the subcommands: rollback and checkpoints (parsed in cli/rollback), loops and the daemon
 * (`--db`, `--store`, `--home`, `--workers`, in the help), pack.
 */
const SUBCOMMAND_FLAGS = [
  "--type",
  "--restart",
  "--abandon",
  "--json",
  "--db",
  "--store",
  "--home",
  "--workers",
  "--check",
  "--no-lock",
  "--min-runtime",
];

/** Files that list flags on purpose: the table itself and the scan that answers pending ones. */
const FLAG_TABLES = ["cli/flags.ts", "cli/scan-argv.ts"];

/** `hankweave loops` declares its own flags with its own parser, next to the messages that name them. */
const OWN_PARSERS = ["cli/loops", "cli/pack"];

/** Files that run git and so name git's flags, never ours. */
const GIT_CALLERS = ["cli/replay/recorded-files.ts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The code without comments: a comment may mention a planned flag, a message may not. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("flags named in messages", () => {
  it("every flag a message mentions exists now (none waits for a later feature)", () => {
    const available = new Set([
      ...FLAGS.filter((flag) => flag.pending === undefined).map((flag) => flag.long),
      ...SUBCOMMAND_FLAGS,
    ]);
    const unknown: string[] = [];
    for (const folder of USER_FACING) {
      for (const file of sourceFiles(join(SRC, folder))) {
        const name = relative(SRC, file);
        if (FLAG_TABLES.includes(name) || GIT_CALLERS.includes(name)) continue;
        if (OWN_PARSERS.some((dir) => name.startsWith(`${dir}/`))) continue;
        for (const match of withoutComments(readFileSync(file, "utf8")).matchAll(
          /(?<![\w-])--[a-z][a-z0-9-]*/g,
        )) {
          if (!available.has(match[0])) unknown.push(`${name}: ${match[0]}`);
        }
      }
    }
    assert.deepEqual(unknown, []);
  });
});
