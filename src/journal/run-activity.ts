import type { DataOf, JournaledEvent } from "../events/events.ts";

/**
 * What a run is doing right now, read off its events: whether a run is live, which codon attempt is
 * running and whether the run is parked waiting for a command. Every face that shows or acts on a
 * run's liveness (the server's command gate, the TUI, the web page, the headless heartbeat) reads this
 * one fold, so they cannot disagree about "running", "parked" or "ended".
 */
export interface RunActivity {
  /** A run has started (`RunStarted`) and not ended. */
  readonly live: boolean;
  /** The codon attempt that started and has not completed. */
  readonly running: RunningAttempt | undefined;
  /** The run announced `server.idle` while live (paused, or parked on a failure) and has not moved since. */
  readonly parked: ParkedRun | undefined;
  /** The `RunStarted` timestamp of the live (or last) run, ms since the epoch. */
  readonly runStartedAt: number | undefined;
}

export interface RunningAttempt {
  readonly id: string;
  readonly name: string;
  /** 1 for the first attempt; retries count up. */
  readonly attempt: number;
  /** The attempt's start (its event's timestamp, ms since the epoch). */
  readonly since: number;
}

export interface ParkedRun {
  readonly reason: DataOf<"server.idle">["reason"];
  readonly message: string;
}

export const IDLE_ACTIVITY: RunActivity = {
  live: false,
  running: undefined,
  parked: undefined,
  runStartedAt: undefined,
};

/** The activity after one journaled event. Pure; unchanged activity is returned as the same object. */
export function nextActivity(activity: RunActivity, event: JournaledEvent): RunActivity {
  switch (event.type) {
    case "state.transition":
      return afterTransition(activity, event.data.transitionType, Date.parse(event.timestamp));
    case "codon.started": {
      const { codonId, codonName, attempt } = event.data;
      const running = {
        id: codonId,
        name: codonName,
        attempt: attempt ?? 1,
        since: Date.parse(event.timestamp),
      };
      return { ...activity, running, parked: undefined };
    }
    case "codon.completed":
      return activity.running?.id === event.data.codonId ? { ...activity, running: undefined } : activity;
    case "server.idle":
      return activity.live
        ? { ...activity, parked: { reason: event.data.reason, message: event.data.message } }
        : activity;
    default:
      return activity;
  }
}

function afterTransition(activity: RunActivity, type: string, at: number): RunActivity {
  switch (type) {
    case "RunStarted":
      return { live: true, running: undefined, parked: undefined, runStartedAt: at };
    case "RunCompleted":
    case "RunFailed":
    case "RunCrashed":
      return { ...IDLE_ACTIVITY, runStartedAt: activity.runStartedAt };
    default:
      return activity;
  }
}
