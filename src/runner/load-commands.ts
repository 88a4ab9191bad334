import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatJsonPath } from "../hank/issues.ts";
import { type CommandConfig, parseCommandConfig } from "../harness/command/index.ts";

export const COMMANDS_FILE = "hankweave.commands.json";

export type CommandsRead =
  | { readonly ok: true; readonly config?: CommandConfig; readonly file?: string }
  | { readonly ok: false; readonly message: string };

/**
 * The command-line agents a run may use: `hankweave.commands.json` beside the hank, else in the
 * current directory. No file means no command agents; a bad file is an error naming each problem.
 */
export function loadCommands(hankDir: string, cwd: string): CommandsRead {
  const file = [join(hankDir, COMMANDS_FILE), join(cwd, COMMANDS_FILE)].find((path) => existsSync(path));
  if (file === undefined) return { ok: true };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return {
      ok: false,
      message: `${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const parsed = parseCommandConfig(raw);
  if (parsed.ok) return { ok: true, config: parsed.config, file };
  const lines = parsed.issues.map(
    (issue) => `  ${formatJsonPath(issue.path)}: ${issue.message} Fix: ${issue.hint}`,
  );
  return { ok: false, message: `${file} is not a valid commands file:\n${lines.join("\n")}` };
}
