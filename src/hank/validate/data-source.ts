import fs from "node:fs";
import { error, type ValidationIssue } from "../issues.ts";

/**
 * The data source the run would link at `agentRoot/read_only_data_source`: it must exist and be
 * readable (a directory must also be listable), or the run would fail after creating its execution.
 * Checked without reading the data itself.
 */
export function checkDataSource(dataPath: string, shown: string = dataPath): ValidationIssue[] {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(dataPath);
  } catch (caught) {
    const code = errorCode(caught);
    if (code === "ENOENT" || code === "ENOTDIR") {
      return [
        dataIssue(
          "data-not-found",
          dataPath,
          `The data source ${shown} does not exist.`,
          "Check the path for a typo, or pass the directory (or file) the agents should read as the data argument or with --data.",
        ),
      ];
    }
    return [unreadable(dataPath, shown, code)];
  }
  const mode = stats.isDirectory() ? fs.constants.R_OK | fs.constants.X_OK : fs.constants.R_OK;
  try {
    fs.accessSync(dataPath, mode);
    if (stats.isDirectory()) fs.readdirSync(dataPath);
  } catch (caught) {
    return [unreadable(dataPath, shown, errorCode(caught))];
  }
  return [];
}

function unreadable(dataPath: string, shown: string, code: string): ValidationIssue {
  return dataIssue(
    "data-unreadable",
    dataPath,
    `The data source ${shown} cannot be read (${code}).`,
    "Give your user read permission on it (and on a directory, permission to list it), or pass another data path.",
  );
}

function dataIssue(code: string, file: string, message: string, hint: string): ValidationIssue {
  return { ...error(code, [], message, hint), file };
}

function errorCode(caught: unknown): string {
  if (caught instanceof Error && "code" in caught && typeof caught.code === "string") return caught.code;
  return caught instanceof Error ? caught.message : String(caught);
}
