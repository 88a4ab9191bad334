import type { JournaledEvent } from "../events/index.ts";
import type { SentinelTrigger } from "../hank/schema/index.ts";
import { compileConditions, type PayloadTest } from "./conditions.ts";

/**
 * Decides, event by event, whether a sentinel's trigger fires, and with which events. An `event` trigger
 * fires on each matching event with that one event; a `sequence` trigger fires when its pattern
 * completes, with the events that completed it, and then starts over after them.
 */
export interface TriggerMatcher {
  /** The events of the match this event completes; undefined when it completes none. */
  match(event: JournaledEvent): readonly JournaledEvent[] | undefined;
}

export function createTriggerMatcher(trigger: SentinelTrigger): TriggerMatcher {
  return trigger.type === "event" ? eventMatcher(trigger) : sequenceMatcher(trigger);
}

/** A set of event types, `*` meaning every type. */
function typeFilter(types: readonly string[]): (type: string) => boolean {
  if (types.includes("*")) return () => true;
  const set = new Set(types);
  return (type) => set.has(type);
}

function eventMatcher(trigger: Extract<SentinelTrigger, { type: "event" }>): TriggerMatcher {
  const accepts = typeFilter(trigger.on);
  const holds = compileConditions(trigger.conditions);
  return {
    match: (event) => (accepts(event.type) && holds(event.data) ? [event] : undefined),
  };
}

interface Step {
  readonly accepts: (type: string) => boolean;
  readonly holds: PayloadTest;
}

function stepMatches(step: Step, event: JournaledEvent): boolean {
  return step.accepts(event.type) && step.holds(event.data);
}

/**
 * Only events of the interest filter enter the sequence's history; the pattern is checked each time one
 * does. `consecutive` (the default) needs the pattern's steps on the last events of the history with
 * none between them; otherwise the steps are found in order with gaps allowed, each step taking the
 * first event that fits it. The history only runs back to the end of the previous match, so an event
 * takes part in one match at most.
 */
function sequenceMatcher(trigger: Extract<SentinelTrigger, { type: "sequence" }>): TriggerMatcher {
  const interesting = typeFilter(trigger.interestFilter.on);
  const steps: Step[] = trigger.pattern.map((step) => ({
    accepts: typeFilter([step.type]),
    holds: compileConditions(step.conditions),
  }));
  const consecutive = trigger.options?.consecutive !== false;
  return consecutive ? tailMatcher(interesting, steps) : gappedMatcher(interesting, steps);
}

function tailMatcher(interesting: (type: string) => boolean, steps: readonly Step[]): TriggerMatcher {
  // The last `steps.length` events of the history are all the pattern can ever look at.
  let recent: JournaledEvent[] = [];
  return {
    match(event) {
      if (!interesting(event.type)) return undefined;
      recent.push(event);
      if (recent.length > steps.length) recent.shift();
      if (recent.length < steps.length) return undefined;
      for (const [i, step] of steps.entries()) {
        const candidate = recent[i];
        if (candidate === undefined || !stepMatches(step, candidate)) return undefined;
      }
      const matched = recent;
      recent = [];
      return matched;
    },
  };
}

function gappedMatcher(interesting: (type: string) => boolean, steps: readonly Step[]): TriggerMatcher {
  let matched: JournaledEvent[] = [];
  return {
    match(event) {
      if (!interesting(event.type)) return undefined;
      const next = steps[matched.length];
      if (next === undefined || !stepMatches(next, event)) return undefined;
      matched.push(event);
      if (matched.length < steps.length) return undefined;
      const done = matched;
      matched = [];
      return done;
    },
  };
}
