import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RigOp } from "../../hank/schema/index.ts";
import { createFakeClock, type FakeClock, tempDir } from "../process/test-support.ts";
import type { RigEvent } from "./rig-events.ts";
import { type RigSetupInput, type RigSetupResult, runRigSetup } from "./run-rig-setup.ts";

/** Shared by the rig tests: a temp hank directory and agentRoot, a recording runner, op builders. */

export const TEST_PATH = process.env.PATH ?? "/usr/bin:/bin";

type DataOf = { [E in RigEvent as E["type"]]: E["data"] };

export interface RigFixture {
  readonly root: string;
  readonly hankDir: string;
  readonly agentRoot: string;
  /** Writes a file, creating its directories. */
  write(path: string, text?: string): void;
  remove(): void;
}

export function rigFixture(): RigFixture {
  const temp = tempDir("rig");
  const hankDir = join(temp.dir, "hank");
  const agentRoot = join(temp.dir, "exec", "agentRoot");
  mkdirSync(hankDir, { recursive: true });
  mkdirSync(agentRoot, { recursive: true });
  return {
    root: temp.dir,
    hankDir,
    agentRoot,
    write(path, text = "") {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
    remove: temp.remove,
  };
}

export interface RigRecorder {
  readonly events: RigEvent[];
  readonly controller: AbortController;
  readonly clock: FakeClock;
  run(ops: RigOp[], extra?: Partial<RigSetupInput>): Promise<RigSetupResult>;
  /** The payloads of the recorded events of one type, in order. */
  ofType<T extends RigEvent["type"]>(type: T): DataOf[T][];
}

/** Runs rig setups for codon `setup` with PATH as the only variable, recording every event. */
export function rigRecorder(
  fixture: RigFixture,
  clock: FakeClock = createFakeClock(),
  onEvent?: (event: RigEvent) => void,
): RigRecorder {
  const events: RigEvent[] = [];
  const controller = new AbortController();
  const emit = (event: RigEvent): void => {
    events.push(event);
    onEvent?.(event);
  };
  const { hankDir, agentRoot } = fixture;
  return {
    events,
    controller,
    clock,
    run: (ops, extra = {}) =>
      runRigSetup(
        {
          codonId: "setup",
          ops,
          hankDir,
          agentRoot,
          env: { PATH: TEST_PATH },
          ignoreRigFailures: false,
          ...extra,
        },
        { clock, emit, signal: controller.signal },
      ),
    ofType: <T extends RigEvent["type"]>(type: T) =>
      events.filter((e) => e.type === type).map((e) => e.data as DataOf[T]),
  };
}

export function copyOp(from: string, to: string, allowFailure?: boolean): RigOp {
  return { type: "copy", copy: { from, to }, ...(allowFailure === undefined ? {} : { allowFailure }) };
}

export function commandOp(
  run: string,
  workingDirectory?: "project" | "lastCopied",
  allowFailure?: boolean,
): RigOp {
  return {
    type: "command",
    command: { run, ...(workingDirectory === undefined ? {} : { workingDirectory }) },
    ...(allowFailure === undefined ? {} : { allowFailure }),
  };
}
