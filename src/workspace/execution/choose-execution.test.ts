import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type ChooseExecutionInput,
  chooseExecution,
  type ExecutionIntent,
  type ExistingExecution,
  settleConfirmation,
  type TargetFacts,
} from "./choose-execution.ts";
import type { ExecutionMeta } from "./execution-meta.ts";

const BASE = "/home/u/.hankweave-executions";
const DATA_DIR = "/home/u/project/data";
const DATA = "a1b2c3d4".repeat(8);
const OTHER_DATA = "ffff0000".repeat(8);
const HANK = "h".repeat(64);
const HANK_PATH = "/home/u/project/hank.json";
const NOW = Date.parse("2025-01-15T10:30:00.000Z");
const NEW_DIR = `${BASE}/20250115T103000Z-k3x9q2-a1b2c3d4`;

function meta(overrides: Partial<ExecutionMeta> = {}): ExecutionMeta {
  return {
    version: "1.1.0",
    readOnlySourceDataPath: DATA_DIR,
    resolvedSourceDataPath: DATA_DIR,
    dataHash: DATA,
    dataHashMethod: "content",
    hankPath: HANK_PATH,
    hankHash: HANK,
    linkType: "symlink",
    createdAt: "2025-01-01T00:00:00.000Z",
    lastUsed: "2025-01-01T00:00:00.000Z",
    hankweaveVersion: "0.1.0",
    invocation: [],
    platform: "linux",
    arch: "x64",
    runtime: "node v20",
    ...overrides,
  };
}

const quiet: ExecutionIntent = {
  startNew: false,
  force: false,
  noWipe: false,
  yes: false,
  interactive: false,
};

function input(
  intent: Partial<ExecutionIntent>,
  rest: Partial<ChooseExecutionInput> = {},
): ChooseExecutionInput {
  return {
    intent: { ...quiet, ...intent },
    baseDir: BASE,
    existing: [],
    dataSourcePath: DATA_DIR,
    dataHash: DATA,
    hankHash: HANK,
    hankPath: HANK_PATH,
    now: NOW,
    randomSuffix: "k3x9q2",
    ...rest,
  };
}

function target(path: string, facts: Partial<TargetFacts> = {}): TargetFacts {
  return {
    path,
    kind: "directory",
    isBaseDir: false,
    entryCount: 0,
    hasStateDir: false,
    meta: { status: "missing" },
    ...facts,
  };
}

const older: ExistingExecution = { dir: `${BASE}/old`, meta: meta({ lastUsed: "2025-01-02T00:00:00.000Z" }) };
const newer: ExistingExecution = { dir: `${BASE}/new`, meta: meta({ lastUsed: "2025-01-10T00:00:00.000Z" }) };
const otherData: ExistingExecution = {
  dir: `${BASE}/other`,
  meta: meta({ dataHash: OTHER_DATA, lastUsed: "2025-01-14T00:00:00.000Z" }),
};
const existing = [older, otherData, newer];

const HANK_CHANGED_OPTIONS = [
  "  -y                   resume the execution with the changed hank",
  "  --start-new          start a new execution",
  "  --start-new --force  start over in this execution directory (old .hankweave/ backed up, agentRoot/ wiped)",
];

describe("chooseExecution without -e", () => {
  it("creates <timestamp>-<random>-<datahash8> when no execution has this data", () => {
    assert.deepEqual(chooseExecution(input({}, { existing: [otherData] })), {
      kind: "create",
      dir: NEW_DIR,
      backupState: false,
      wipeAgentRoot: false,
    });
  });

  it("resumes the most recently used execution with the same data hash", () => {
    assert.deepEqual(chooseExecution(input({}, { existing })), {
      kind: "resume",
      dir: `${BASE}/new`,
      meta: newer.meta,
      hankChanged: false,
      dataChanged: false,
    });
  });

  it("breaks a lastUsed tie by the later directory name, and ranks an unparseable lastUsed last", () => {
    const a: ExistingExecution = { dir: `${BASE}/20250101-a`, meta: meta() };
    const b: ExistingExecution = { dir: `${BASE}/20250102-b`, meta: meta() };
    const broken: ExistingExecution = { dir: `${BASE}/zzz`, meta: meta({ lastUsed: "yesterday" }) };
    const choice = chooseExecution(input({}, { existing: [broken, b, a] }));
    assert.equal(choice.kind === "resume" ? choice.dir : choice.kind, `${BASE}/20250102-b`);
  });

  it("gives another hank file on the same data its own execution (the hank's location is part of the identity)", () => {
    const variant = "/home/u/project/hank-fast.json";
    assert.deepEqual(chooseExecution(input({}, { existing, hankPath: variant })), {
      kind: "create",
      dir: NEW_DIR,
      backupState: false,
      wipeAgentRoot: false,
    });
  });

  it("names the codons an edited hank added and removed, or says they are the same", () => {
    const recorded: ExistingExecution = { dir: `${BASE}/new`, meta: meta({ codonIds: ["a", "b", "x"] }) };
    const edited = chooseExecution(
      input({}, { existing: [recorded], hankHash: "c".repeat(64), codonIds: ["a", "x", "c", "d"] }),
    );
    assert.match(
      edited.kind === "refuse" ? edited.message : "",
      /changed since execution new last ran\. Codons added: c, d\. Codons removed: b\. Not resuming/,
    );
    const tweaked = chooseExecution(
      input(
        { interactive: true },
        { existing: [recorded], hankHash: "c".repeat(64), codonIds: ["a", "b", "x"] },
      ),
    );
    assert.match(
      tweaked.kind === "confirm" ? tweaked.question : "",
      /last ran\. The codons are the same; their prompts or settings changed\. Resume it/,
    );
  });

  it("starts a new directory with --start-new even when a match exists", () => {
    assert.deepEqual(chooseExecution(input({ startNew: true }, { existing })), {
      kind: "create",
      dir: NEW_DIR,
      backupState: false,
      wipeAgentRoot: false,
    });
  });

  it("starts over in the matching execution with --start-new --force, wiping agentRoot unless --no-wipe", () => {
    assert.deepEqual(chooseExecution(input({ startNew: true, force: true }, { existing })), {
      kind: "create",
      dir: `${BASE}/new`,
      backupState: true,
      wipeAgentRoot: true,
    });
    assert.deepEqual(chooseExecution(input({ startNew: true, force: true, noWipe: true }, { existing })), {
      kind: "create",
      dir: `${BASE}/new`,
      backupState: true,
      wipeAgentRoot: false,
    });
  });

  it("creates a new directory with --start-new --force when nothing matches", () => {
    assert.deepEqual(chooseExecution(input({ startNew: true, force: true }, { existing: [otherData] })), {
      kind: "create",
      dir: NEW_DIR,
      backupState: false,
      wipeAgentRoot: false,
    });
  });

  it("fails closed on a changed hank when non-interactive, listing -y, --start-new, --start-new --force", () => {
    const choice = chooseExecution(input({}, { existing, hankHash: "c".repeat(64) }));
    assert.deepEqual(choice, {
      kind: "refuse",
      code: "hank-changed",
      message: [
        `The hank file ${HANK_PATH} changed since execution new last ran. Not resuming without confirmation in a non-interactive run. Choose one:`,
        ...HANK_CHANGED_OPTIONS,
      ].join("\n"),
    });
  });

  it("asks about a changed hank when interactive (30 s, no or timeout refuses)", () => {
    const choice = chooseExecution(input({ interactive: true }, { existing, hankHash: "c".repeat(64) }));
    const resume = {
      kind: "resume",
      dir: `${BASE}/new`,
      meta: newer.meta,
      hankChanged: true,
      dataChanged: false,
    };
    assert.deepEqual(choice, {
      kind: "confirm",
      question: `The hank file ${HANK_PATH} changed since execution new last ran. Resume it with the changed hank?`,
      timeoutMs: 30_000,
      onYes: resume,
      onNo: {
        kind: "refuse",
        code: "hank-changed",
        message: [
          `The hank file ${HANK_PATH} changed since execution new last ran. Resuming with the changed hank was not confirmed. Choose one:`,
          ...HANK_CHANGED_OPTIONS,
        ].join("\n"),
      },
    });
    if (choice.kind !== "confirm") return;
    assert.deepEqual(settleConfirmation(choice, true), resume);
    assert.equal(settleConfirmation(choice, false), choice.onNo);
  });

  it("resumes a changed hank without asking with -y", () => {
    const choice = chooseExecution(input({ yes: true }, { existing, hankHash: "c".repeat(64) }));
    assert.deepEqual(choice, {
      kind: "resume",
      dir: `${BASE}/new`,
      meta: newer.meta,
      hankChanged: true,
      dataChanged: false,
    });
  });

  it("treats a meta without hankHash as unchanged", () => {
    const { hankHash: _unused, ...withoutHank } = meta();
    const legacy: ExistingExecution = { dir: `${BASE}/legacy`, meta: withoutHank };
    const choice = chooseExecution(input({}, { existing: [legacy], hankHash: "c".repeat(64) }));
    assert.deepEqual(choice, {
      kind: "resume",
      dir: `${BASE}/legacy`,
      meta: withoutHank,
      hankChanged: false,
      dataChanged: false,
    });
  });

  it("refuses when the base directory lies inside the data source", () => {
    const choice = chooseExecution(input({}, { baseDir: `${DATA_DIR}/runs` }));
    assert.deepEqual(choice, {
      kind: "refuse",
      code: "nested",
      message:
        `The execution directory ${DATA_DIR}/runs/20250115T103000Z-k3x9q2-a1b2c3d4 is inside the data source ${DATA_DIR}. ` +
        "The agent would see its own workspace through read_only_data_source, and every run would change the data hash. " +
        "Choose an execution directory outside the data source (omit -e to use the executions base directory).",
    });
  });
});

describe("chooseExecution with -e", () => {
  const DIR = "/home/u/runs/r1";
  const explicit = (intent: Partial<ExecutionIntent>, facts: Partial<TargetFacts> = {}, rest = {}) =>
    chooseExecution(input({ execution: DIR, ...intent }, { target: target(DIR, facts), existing, ...rest }));

  it("creates in an absent or empty directory", () => {
    const create = { kind: "create", dir: DIR, backupState: false, wipeAgentRoot: false };
    assert.deepEqual(explicit({}, { kind: "absent" }), create);
    assert.deepEqual(explicit({}, { entryCount: 0 }), create);
  });

  it("refuses a path that is not a directory", () => {
    assert.deepEqual(explicit({}, { kind: "other" }), {
      kind: "refuse",
      code: "not-a-directory",
      message: `-e ${DIR} exists and is not a directory. Pass a directory (new, empty, or a previous execution).`,
    });
  });

  it("tier 1: refuses the base directory itself unless it holds an execution-meta.json", () => {
    const baseFacts = { isBaseDir: true, entryCount: 3 };
    const choice = chooseExecution(input({ execution: BASE }, { target: target(BASE, baseFacts) }));
    assert.deepEqual(choice, {
      kind: "refuse",
      code: "base-dir",
      message:
        `${BASE} is the executions base directory, which holds one directory per execution; it cannot be used as an ` +
        "execution directory itself (-e). Omit -e to create a new execution inside it, or pass a subdirectory, " +
        `e.g. -e ${BASE}/my-run.`,
    });
  });

  it("tier 1: resumes a base directory that holds an execution, but never creates there", () => {
    const facts = {
      isBaseDir: true,
      entryCount: 1,
      hasStateDir: true,
      meta: { status: "ok" as const, meta: meta() },
    };
    assert.deepEqual(chooseExecution(input({ execution: BASE }, { target: target(BASE, facts) })), {
      kind: "resume",
      dir: BASE,
      meta: meta(),
      hankChanged: false,
      dataChanged: false,
    });
    const startNew = chooseExecution(
      input({ execution: BASE, startNew: true, force: true }, { target: target(BASE, facts) }),
    );
    assert.deepEqual(startNew, {
      kind: "refuse",
      code: "base-dir",
      message:
        `${BASE} is the executions base directory. The execution it holds can be resumed, but no new execution can be ` +
        "started there. Drop --start-new to resume it, or omit -e to create a new execution inside it.",
    });
  });

  it("tier 2: --start-new over existing state needs --force", () => {
    const facts = { entryCount: 2, hasStateDir: true, meta: { status: "ok" as const, meta: meta() } };
    assert.deepEqual(explicit({ startNew: true }, facts), {
      kind: "refuse",
      code: "state-exists",
      message:
        `${DIR} already holds hankweave state (.hankweave/). Add --force to start over there: the old state is moved to ` +
        ".hankweave.backup-<timestamp> and agentRoot/ is wiped. Drop --start-new to resume the " +
        "existing execution instead.",
    });
    assert.deepEqual(explicit({ startNew: true, force: true }, facts), {
      kind: "create",
      dir: DIR,
      backupState: true,
      wipeAgentRoot: true,
    });
    assert.deepEqual(explicit({ startNew: true, force: true, noWipe: true }, facts), {
      kind: "create",
      dir: DIR,
      backupState: true,
      wipeAgentRoot: false,
    });
  });

  it("resumes a directory with state and the same data", () => {
    const facts = { entryCount: 2, hasStateDir: true, meta: { status: "ok" as const, meta: meta() } };
    assert.deepEqual(explicit({}, facts), {
      kind: "resume",
      dir: DIR,
      meta: meta(),
      hankChanged: false,
      dataChanged: false,
    });
  });

  it("refuses resuming on different data unless --force", () => {
    const facts = { entryCount: 2, hasStateDir: true, meta: { status: "ok" as const, meta: meta() } };
    assert.deepEqual(explicit({}, facts, { dataHash: OTHER_DATA }), {
      kind: "refuse",
      code: "data-changed",
      message:
        "The data source differs from the one execution r1 was created with (data hash a1b2c3d4, now ffff0000). " +
        "Resuming would continue the work on different data. Add --force to resume it with the new data, or " +
        "--start-new to start a new execution.",
    });
    assert.deepEqual(explicit({ force: true }, facts, { dataHash: OTHER_DATA }), {
      kind: "resume",
      dir: DIR,
      meta: meta(),
      hankChanged: false,
      dataChanged: true,
    });
  });

  it("still asks about a changed hank after --force accepted changed data", () => {
    const facts = { entryCount: 2, hasStateDir: true, meta: { status: "ok" as const, meta: meta() } };
    const choice = explicit({ force: true }, facts, { dataHash: OTHER_DATA, hankHash: "c".repeat(64) });
    assert.equal(choice.kind === "refuse" ? choice.code : choice.kind, "hank-changed");
  });

  it("tier 2: state without a usable meta cannot be resumed; --force backs it up and starts fresh", () => {
    const missing = { entryCount: 1, hasStateDir: true };
    assert.deepEqual(explicit({}, missing), {
      kind: "refuse",
      code: "invalid-state",
      message:
        `${DIR} has a .hankweave/ directory but no usable execution-meta.json (it is missing), so it cannot be resumed. ` +
        "Add --force to move it to .hankweave.backup-<timestamp> and start a new execution there, or choose another directory.",
    });
    const invalid = {
      ...missing,
      meta: { status: "invalid" as const, message: "execution-meta.json is not valid JSON" },
    };
    const refusal = explicit({}, invalid);
    assert.equal(
      refusal.kind === "refuse" ? refusal.message.split(", so")[0] : "",
      `${DIR} has a .hankweave/ directory but no usable execution-meta.json (execution-meta.json is not valid JSON)`,
    );
    assert.deepEqual(explicit({ force: true }, invalid), {
      kind: "create",
      dir: DIR,
      backupState: true,
      wipeAgentRoot: false,
    });
  });

  it("tier 2: a layout a killed start left before its meta (directories only) is laid out again", () => {
    const cut = { entryCount: 3, hasStateDir: true, stateRecordsNothing: true };
    const create = { kind: "create", dir: DIR, backupState: false, wipeAgentRoot: false };
    assert.deepEqual(explicit({}, cut), create);
    assert.deepEqual(explicit({ yes: true }, cut), create);
    const recorded = { ...cut, stateRecordsNothing: false };
    assert.equal(explicit({}, recorded).kind, "refuse", "a state dir holding files still needs --force");
    const invalid = { ...cut, meta: { status: "invalid" as const, message: "not JSON" } };
    assert.equal(explicit({}, invalid).kind, "refuse", "a broken meta is not a cut-short start");
    assert.equal(
      explicit({ startNew: true }, cut).kind,
      "refuse",
      "--start-new without --force still refuses",
    );
  });

  it("tier 3: a non-empty directory fails closed when non-interactive", () => {
    assert.deepEqual(explicit({}, { entryCount: 4 }), {
      kind: "refuse",
      code: "not-empty",
      message:
        `${DIR} is not empty (4 entries) and holds no hankweave execution. Refusing to use it without confirmation in a ` +
        "non-interactive run. Pass -y to use it anyway, or choose an empty or new directory with -e.",
    });
  });

  it("tier 3: asks when interactive, and -y skips the question", () => {
    const create = { kind: "create", dir: DIR, backupState: false, wipeAgentRoot: false };
    assert.deepEqual(explicit({ interactive: true }, { entryCount: 1 }), {
      kind: "confirm",
      question: `${DIR} is not empty (1 entry) and holds no hankweave execution. Create an execution in it?`,
      timeoutMs: 30_000,
      onYes: create,
      onNo: {
        kind: "refuse",
        code: "not-empty",
        message:
          `${DIR} is not empty (1 entry) and holds no hankweave execution. Using it was not confirmed. Pass -y to use ` +
          "it anyway, or choose an empty or new directory with -e.",
      },
    });
    assert.deepEqual(explicit({ yes: true }, { entryCount: 1 }), create);
  });

  it("refuses an -e directory inside the data source or containing it, before anything else", () => {
    const inside = `${DATA_DIR}/exec`;
    const choice = chooseExecution(
      input({ execution: inside }, { target: target(inside, { entryCount: 5 }) }),
    );
    assert.equal(choice.kind === "refuse" ? choice.code : choice.kind, "nested");
    const outer = "/home/u/project";
    const containing = chooseExecution(
      input({ execution: outer }, { target: target(outer, { entryCount: 5 }) }),
    );
    assert.deepEqual(containing, {
      kind: "refuse",
      code: "nested",
      message:
        `The execution directory ${outer} contains the data source ${DATA_DIR}. Backing up or wiping the execution ` +
        "(--start-new --force) would reach your data, and the agent could write to its own input. Choose an execution " +
        "directory outside the data source, or move the data out.",
    });
  });

  it("does not mistake a sibling with a common prefix for nesting", () => {
    const sibling = `${DATA_DIR}-exec`;
    assert.deepEqual(
      chooseExecution(input({ execution: sibling }, { target: target(sibling, { kind: "absent" }) })),
      {
        kind: "create",
        dir: sibling,
        backupState: false,
        wipeAgentRoot: false,
      },
    );
  });

  it("throws when -e is given without target facts (a caller bug)", () => {
    assert.throws(() => chooseExecution(input({ execution: DIR })), /without target facts/);
  });
});
