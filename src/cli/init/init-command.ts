import fs from "node:fs";
import path from "node:path";
import { STARTER_FILES } from "./starter-files.ts";

/** What `--init` did: the lines to print, where, and the exit code. */
export interface InitOutcome {
  readonly exitCode: 0 | 1;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `hankweave --init`: scaffolds a starter hank in `dir`, which must be empty (any entry, even `.git`,
 * refuses: init never mixes its files with someone else's). Files are created exclusively (`wx`), so
 * a directory filled by another process meanwhile is never overwritten.
 */
export function initHank(dir: string): InitOutcome {
  const refusal = emptinessProblem(dir);
  if (refusal !== undefined) return { exitCode: 1, stdout: "", stderr: `Init failed: ${refusal}\n` };
  try {
    for (const file of STARTER_FILES) {
      const target = path.join(dir, ...file.path.split("/"));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.content, { flag: "wx" });
    }
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return { exitCode: 1, stdout: "", stderr: `Init failed: ${reason}\n` };
  }
  const lines = [
    `✅ Initialized hank in ${dir}`,
    "Created files:",
    ...STARTER_FILES.map((file) => `  ${file.path}`),
    "",
    "Next steps:",
    "  hankweave --validate              check the hank",
    "  hankweave -m scripted --headless  run it offline, no API key needed",
    "",
  ];
  return { exitCode: 0, stdout: lines.join("\n"), stderr: "" };
}

function emptinessProblem(dir: string): string | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return `Cannot read directory ${dir}: ${reason}`;
  }
  if (entries.length === 0) return undefined;
  return `Directory ${dir} is not empty. Please run init in an empty directory or specify a new directory.`;
}
