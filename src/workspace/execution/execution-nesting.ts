import { isAbsolute, relative, sep } from "node:path";

/**
 * Pure: why an execution directory may not sit where it would, given canonical (absolute, links
 * resolved) paths, or null when it may. Inside the data source, the agent would see its own workspace
 * through `read_only_data_source` and every run would change the data hash; containing the data source,
 * `--force` backups and agentRoot wipes would reach the user's data.
 */
export function nestingProblem(executionDir: string, dataSource: string): string | null {
  if (isWithin(executionDir, dataSource)) {
    const where =
      executionDir === dataSource ? "is the data source itself" : `is inside the data source ${dataSource}`;
    return (
      `The execution directory ${executionDir} ${where}. The agent would see its own workspace through ` +
      "read_only_data_source, and every run would change the data hash. Choose an execution directory " +
      "outside the data source (omit -e to use the executions base directory)."
    );
  }
  if (isWithin(dataSource, executionDir)) {
    return (
      `The execution directory ${executionDir} contains the data source ${dataSource}. Backing up or ` +
      "wiping the execution (--start-new --force) would reach your data, and the agent could write to its " +
      "own input. Choose an execution directory outside the data source, or move the data out."
    );
  }
  return null;
}

/** True when `inner` is `outer` or lies below it. */
export function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  if (rel === "") return true;
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
