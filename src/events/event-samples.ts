import type { DataOf, EventOf, EventType, HankEvent, JournaledEvent, JournaledType } from "./events.ts";
import { isJournaled, RECORD_VERSION } from "./events.ts";

/**
 * One realistic payload per event type: for tests, docs and client development. The mapped type makes
 * the compiler demand a sample for every type of the union.
 */
export const SAMPLE_DATA: { readonly [T in EventType]: DataOf<T> } = {
  "codon.started": {
    codonId: "edit#0",
    codonName: "Edit",
    sessionId: "sess-1",
    startTime: "2025-01-01T00:00:00.000Z",
    promptMetadata: { name: "edit", tags: ["refactor"] },
    attempt: 1,
  },
  "codon.completed": {
    codonId: "edit#0",
    success: true,
    cost: 0.42,
    duration: 61_000,
    exitStatus: { type: "success" },
    endReasons: { stream: "completed", toolBatch: "completed", turn: "completed", codon: "completed" },
    attempt: 1,
  },
  "codon.extended": {
    codonId: "fill",
    codonName: "Fill",
    extensionNumber: 1,
    exhaustWithPrompt: "Continue.",
    cumulativeTokens: { inputTokens: 1000, outputTokens: 200, cacheCreationTokens: 0, cacheReadTokens: 500 },
    cumulativeCost: 0.1,
  },
  "state.snapshot": {
    completedCodons: [
      { codonId: "plan", status: "completed", startTime: "2025-01-01T00:00:00.000Z", cost: 0.1 },
    ],
    fileTree: [
      {
        name: "src",
        path: "src",
        isDirectory: true,
        children: [
          { name: "a.ts", path: "src/a.ts", isDirectory: false, children: [], lastModified: "2025-01-01" },
        ],
      },
    ],
    totalCost: 0.1,
    totalTime: 5000,
    isRollingBack: false,
  },
  "server.idle": { reason: "all-codons-completed", message: "All codons completed" },
  "token.usage": {
    codonId: "edit#0",
    inputTokens: 1200,
    outputTokens: 300,
    cacheCreationTokens: 0,
    cacheReadTokens: 800,
    totalCost: 0.02,
    modelId: "claude-haiku-4-5",
  },
  info: { message: "Retrying codon edit#0 (attempt 2 of 3)" },
  error: { message: "Rig command failed", codon: "setup", fatal: false, severity: "codon" },
  "checkpoint.list": {
    runId: "run-1",
    checkpoints: [
      {
        codonId: "plan",
        codonName: "Plan",
        checkpointType: "completed",
        sha: "0123456789abcdef0123456789abcdef01234567",
        status: "completed",
        timestamp: "2025-01-01T00:01:00.000Z",
      },
    ],
    currentBranch: "run-1",
  },
  "rollback.started": {
    fromRun: "run-1",
    fromCodon: "review",
    toCodon: "plan",
    toCheckpoint: "0123456",
    checkpointType: "completed",
    codonsToProcess: ["review", "edit#0"],
  },
  "rollback.progress": { currentStep: 1, totalSteps: 3, message: "Resetting work tree" },
  "rollback.codonCheckpoint": {
    codonId: "plan",
    codonName: "Plan",
    checkpoint: "0123456",
    checkpointType: "completed",
    message: "Restored plan",
  },
  "rollback.completed": {
    fromRun: "run-1",
    toRun: "run-2",
    checkpoint: "0123456",
    codonId: "plan",
    codonName: "Plan",
    checkpointType: "completed",
    autoRestart: false,
  },
  "rollback.rigCleanup": {
    codonId: "edit#0",
    codonName: "Edit",
    directories: ["build"],
    status: "completed",
    successfulCleanups: ["build"],
  },
  "rollback.archiveRestore": { codonId: "edit#0", restoredPaths: ["notes.md"], status: "completed" },
  "state.transition": {
    transitionType: "RunStarted",
    runId: "run-1",
    transition: { type: "RunStarted", data: { startingConditions: { type: "fresh" } } },
    resultingState: { currentRunId: "run-1", runCount: 1, totalCost: 0, currentRunCost: 0 },
  },
  "loop.iteration.completed": {
    loopId: "revise",
    iteration: 1,
    durationMs: 30_000,
    costUsd: 0.2,
    tokensUsed: 5000,
    isFinal: true,
    terminationReason: "iteration_limit",
  },
  "archive.completed": { codonId: "edit#0", archivedPaths: ["current-project/history.txt"] },
  "archive.partial": {
    codonId: "edit#0",
    archivedPaths: ["a.txt"],
    failedPaths: [{ path: "b.txt", error: "EACCES" }],
  },
  "budget.summary": {
    ceiling: { maxDollars: 5 },
    allocation: "shared",
    rows: [
      {
        codonId: "c",
        status: "exceeded",
        budget: { maxDollars: 0.7 },
        actual: { dollars: 0.8, timeSeconds: 12, outputTokens: 900 },
      },
    ],
    totals: { budgetDollars: 5, actualDollars: 5.1, actualTimeSeconds: 100 },
  },
  "assistant.action": {
    codonId: "edit#0",
    action: "tool_use",
    content: "Writing the file",
    toolName: "Write",
    toolInput: { file_path: "a.ts", content: "export {};\n" },
    toolUseId: "toolu_1",
  },
  "tool.result": {
    codonId: "edit#0",
    toolUseId: "toolu_1",
    toolName: "Write",
    result: "ok",
    truncated: false,
    originalLength: 2,
    executionTimeMs: 4,
    isError: false,
  },
  "file.updated": {
    path: "src/a.ts",
    filename: "a.ts",
    action: "modified",
    sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    bytes: 11,
    source: { kind: "tool_use", toolUseId: "toolu_1" },
  },
  "filetree.updated": { tree: [{ name: "a.ts", path: "a.ts", isDirectory: false, children: [] }] },
  "rig.setup.completed": {
    codonId: "setup",
    rigType: "commands",
    commandCount: 2,
    durationMs: 800,
    createdCheckpoint: true,
  },
  "rig.setup.failed": {
    codonId: "setup",
    failureType: "command_failed",
    exitCode: 1,
    commandIndex: 0,
    ignored: false,
  },
  "rig.output": { codonId: "setup", stream: "stdout", line: "installed 3 packages", commandIndex: 0 },
  "sentinel.loaded": {
    sentinelId: "cost-watch",
    codonId: "edit#0",
    model: "anthropic/claude-haiku-4-5",
    triggerType: "event",
    executionStrategy: "debounce",
    conversational: false,
    source: "file",
    sourcePath: "sentinels/cost-watch.json",
  },
  "sentinel.unloaded": {
    sentinelId: "cost-watch",
    codonId: "edit#0",
    reason: "codon-complete",
    finalCost: 0.01,
    llmCallCount: 2,
  },
  "sentinel.error": {
    sentinelId: "cost-watch",
    codonId: "edit#0",
    errorType: "llm-call-failed",
    message: "503",
    retriable: true,
    consecutiveFailureCount: 1,
  },
  "sentinel.output": {
    sentinelId: "cost-watch",
    codonId: "edit#0",
    triggerNumber: 1,
    outputType: "structured",
    content: { verdict: "ok" },
    cost: 0.001,
    tokens: { input: 300, output: 20 },
    eventCount: 5,
  },
  "sentinel.triggered": {
    sentinelId: "cost-watch",
    codonId: "edit#0",
    triggerNumber: 1,
    strategy: "debounce",
    eventCount: 5,
    queueSize: 0,
  },
  "run.command": {
    commandId: "cmd-1",
    command: "skip",
    codonId: "edit#1",
    source: "api",
    phase: "applied",
    message: "Skipped codon edit#1",
  },
  "server.ready": {
    serverVersion: "0.1.0",
    executionPath: "/tmp/exec",
    agentRootPath: "/tmp/exec/agentRoot",
    dataPath: "/tmp/data",
    port: 4500,
  },
  pong: { message: "pong", timestamp: "2025-01-01T00:00:00.000Z" },
  "history.batch": { events: [], hasMore: false },
  "incomplete.codon": { codonId: "edit#0", codonName: "Edit", message: "Codon edit#0 did not complete" },
};

/** A complete sample event of `type`: journaled types get `seq`, connection types none. */
export function sampleEvent<T extends EventType>(type: T, seq?: number): EventOf<T>;
export function sampleEvent(type: EventType, seq = 1): HankEvent {
  const base = { v: RECORD_VERSION, id: `evt-${seq}`, timestamp: "2025-01-01T00:00:00.000Z", type };
  return (
    isJournaled(type) ? { ...base, seq, data: SAMPLE_DATA[type] } : { ...base, data: SAMPLE_DATA[type] }
  ) as HankEvent;
}

/** A sample journaled event, typed as the union. */
export function sampleJournaled(type: JournaledType, seq = 1): JournaledEvent {
  return sampleEvent(type, seq) as JournaledEvent;
}
