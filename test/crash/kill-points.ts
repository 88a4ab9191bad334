import type { JournaledEvent } from "../../src/journal/index.ts";
import type { SignalTrigger } from "./crash-driver.ts";

/** The points of the crash matrix (kill-and-resume.test.ts), grouped in chains over one execution each. */

export type Rebuild = "before-completion" | "before-snapshot" | "torn-append" | "snapshot-lost";

export interface KillPoint {
  readonly label: string;
  readonly trigger: SignalTrigger;
  /** Turns a kill into an exact earlier point (see crash-points.ts). */
  readonly rebuild?: { readonly kind: Rebuild; readonly codonId?: string };
  /** The process may exit before the signal lands (its trigger comes just before the end). */
  readonly mayFinish?: boolean;
}

export interface Chain {
  readonly name: string;
  readonly points: readonly KillPoint[];
  /** SIGINT points: runs and attempts may end `aborted`. */
  readonly cancels?: boolean;
}

const started = (id: string) => (e: JournaledEvent) => e.type === "codon.started" && e.data.codonId === id;
/**
 * The first tool result: the codon has appended its begin line and sleeps (300 ms for `x`: with 100 ms
 * a kill sent by a driver the loaded machine did not schedule in time once landed after the codon
 * ended, and the points after it in its chain never came).
 */
const working = (id: string) => (e: JournaledEvent) => e.type === "tool.result" && e.data.codonId === id;
const completed = (id: string) => (e: JournaledEvent) =>
  e.type === "codon.completed" && e.data.codonId === id && e.data.success;
/** Rig setup of the codon is about to start. */
const preparing = (id: string) => (e: JournaledEvent) =>
  e.type === "state.transition" &&
  e.data.codonId === id &&
  e.data.transitionType === "CodonTransitioned" &&
  e.data.transition.data.status === "preparing";
const transition = (type: string) => (e: JournaledEvent) =>
  e.type === "state.transition" && e.data.transitionType === type;
const info = (prefix: string) => (e: JournaledEvent) =>
  e.type === "info" && e.data.message.startsWith(prefix);

/** A SIGKILL to the CLI's whole process group, git processes included, as a dying machine would. */
function at(label: string, when: SignalTrigger["when"], delayMs?: number): KillPoint {
  return { label, trigger: { when, signal: "SIGKILL", ...(delayMs !== undefined && { delayMs }) } };
}

/** A Ctrl-C at the terminal: SIGINT to the CLI's process group (twice: the forced shutdown). */
function ctrlC(label: string, when: SignalTrigger["when"], extra: Partial<SignalTrigger> = {}): KillPoint {
  return { label, trigger: { when, signal: "SIGINT", ...extra } };
}

/** A kill just after `codonId` completed, rebuilt into the exact point named by `kind`. */
function around(codonId: string, kind: "before-completion" | "before-snapshot"): KillPoint {
  return {
    label: `${codonId}: ${kind === "before-completion" ? "checkpoint committed, codon.completed not journaled" : "codon.completed journaled, state.json not written"}`,
    trigger: { when: completed(codonId), signal: "SIGKILL" },
    rebuild: { kind, codonId },
    mayFinish: true,
  };
}

function torn(label: string, when: SignalTrigger["when"]): KillPoint {
  return { ...at(`${label}, then a torn journal append`, when), rebuild: { kind: "torn-append" } };
}

/** The snapshot and its backup are lost too: the plan and state come from the journal alone. */
function snapshotLost(point: KillPoint): KillPoint {
  return { ...point, label: `${point.label}, state.json lost`, rebuild: { kind: "snapshot-lost" } };
}

export const CHAINS: readonly Chain[] = [
  {
    name: "start and rig setup",
    points: [
      at("run started: checkpoint store being created", transition("RunStarted")),
      at("run started +60 ms", transition("RunStarted"), 60),
      at("setup: rig command starting", preparing("setup")),
      at("setup: rig command sleeping", preparing("setup"), 150),
      at("setup: rig-setup checkpoint just committed", (e) => e.type === "rig.setup.completed"),
      at("setup: mid-codon", working("setup")),
      around("setup", "before-completion"),
    ],
  },
  {
    name: "codon and loop boundaries",
    points: [
      around("setup", "before-snapshot"),
      at("x#0: rig command sleeping", preparing("x#0"), 100),
      at("x#0: mid-codon", working("x#0")),
      around("y#0", "before-completion"),
      around("y#0", "before-snapshot"),
      around("y#1", "before-snapshot"),
      around("y#2", "before-completion"),
    ],
  },
  {
    name: "sweep after codon start",
    points: [
      at("setup started +40 ms", started("setup"), 40),
      at("x#0 started +20 ms", started("x#0"), 20),
      at("y#0 started +0 ms", started("y#0")),
      at("x#1 started +60 ms", started("x#1"), 60),
      snapshotLost(at("y#1 started +2 ms", started("y#1"), 2)),
      at("x#2 started +90 ms", started("x#2"), 90),
      { ...at("final started +30 ms", started("final"), 30), mayFinish: true },
    ],
  },
  {
    name: "late points and torn appends",
    points: [
      torn("x#0: mid-codon", working("x#0")),
      at("loop iteration 0 reported", (e) => e.type === "loop.iteration.completed"),
      torn("x#2: rig starting", preparing("x#2")),
      around("final", "before-completion"),
      around("final", "before-snapshot"),
      { ...at("budget summary written", (e) => e.type === "budget.summary"), mayFinish: true },
      { ...at("run completed, lock not yet released", transition("RunCompleted")), mayFinish: true },
    ],
  },
  {
    name: "kills in a row inside recovery",
    points: [
      at("x#1: mid-codon", working("x#1")),
      at("recovery: the crash just journaled", transition("RunCrashed")),
      at("recovery: the next run just started", transition("RunStarted")),
      at("recovery: files put back, line not journaled", info("Restarting from checkpoint")),
      at("recovery: line journaled", transition("InitialCheckpointSet")),
      at("x#1 again: mid-codon", working("x#1")),
    ],
  },
  {
    name: "Ctrl-C",
    cancels: true,
    points: [
      ctrlC("setup: mid-codon", working("setup")),
      ctrlC("x#0: rig command sleeping", preparing("x#0"), { delayMs: 100 }),
      ctrlC("y#0 completed: at the codon boundary", completed("y#0")),
      ctrlC("x#1: mid-codon, Ctrl-C twice (forced)", working("x#1"), { secondAfterMs: 20 }),
      ctrlC("final: rig command sleeping", preparing("final"), { delayMs: 50 }),
    ],
  },
];
