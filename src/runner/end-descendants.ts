import { childrenByParent, processTable, sendSignal } from "../util/process-table.ts";

/**
 * A forced shutdown (a second Ctrl-C) must leave no process behind: agents and rig commands run as the
 * leaders of their own process groups, so a signal to ours never reaches them, and a process that
 * ignores SIGTERM would outlive the runtime and go on writing into the workspace. This ends every
 * process descending from `rootPid`, each group led by a descendant as a whole (grandchildren that
 * stayed in their leader's group included). Linux reads /proc; elsewhere `ps` answers.
 * Returns how many processes or groups were signalled.
 */
export function endDescendants(rootPid: number, signal: NodeJS.Signals = "SIGKILL"): number {
  const children = childrenByParent(processTable());
  let signalled = 0;
  const pending = [...(children.get(rootPid) ?? [])];
  for (let row = pending.pop(); row !== undefined; row = pending.pop()) {
    pending.push(...(children.get(row.pid) ?? []));
    const leader = row.pgid === row.pid;
    if (sendSignal(leader ? -row.pid : row.pid, signal)) signalled++;
  }
  return signalled;
}
