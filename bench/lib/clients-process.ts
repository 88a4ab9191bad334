import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { childEnv } from "./child-env.ts";

/** A clients' process: its report (the line it prints after `ready`, if any) and its exit. */
export interface ClientsProcess {
  readonly report: Promise<string | undefined>;
  readonly exited: Promise<void>;
}

/**
 * Starts `node --import tsx <self> <mode> <json args>`, the clients' side of a benchmark kept out of
 * the measured process, and resolves once it prints `ready` (wrapped: a promise resolved with a
 * promise would wait for it).
 */
export function startClientsProcess(self: string, mode: string, args: object): Promise<ClientsProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", self, mode, JSON.stringify(args)], {
    env: childEnv(process.env),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let reported: ((line: string | undefined) => void) | undefined;
  const report = new Promise<string | undefined>((resolve) => {
    reported = resolve;
  });
  void exited.then(() => reported?.(undefined));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line === "ready") resolve({ report, exited });
      else reported?.(line);
    });
    child.once("error", reject);
  });
}
