import type { FakeReply, FakeRequestView } from "../fake-providers/index.ts";
import { planReply } from "./plan-reply.ts";
import type { SessionPlan } from "./session-plan.ts";

/**
 * Tells the fake model what to do in each session of a scenario. The scenario gives the plans of its
 * sessions in the order the engine will start them; the probe around the harness under test moves to
 * the next plan as each session starts; the fake provider's script (or the scripted agent's prompt)
 * acts out the current one. Sessions of one run never overlap, so "current" is well defined.
 */
export interface SessionDirector {
  /** Sets the plans of the next run's sessions, in start order, and forgets the previous run. */
  plan(plans: readonly SessionPlan[]): void;
  /** Moves to the next planned session; throws when the run starts a session nobody planned. */
  nextSession(): SessionPlan;
  /** The plan of the session that started last. */
  current(): SessionPlan;
  /** Sessions started since `plan`. */
  started(): number;
  /** A fake provider script: answers each request by the current plan and records the request. */
  readonly fakeScript: (request: FakeRequestView) => FakeReply;
  /** The model requests a fake provider received during session `index` (0-based). */
  requestsOf(index: number): readonly FakeRequestView[];
}

export function createSessionDirector(): SessionDirector {
  let plans: readonly SessionPlan[] = [];
  let requests: FakeRequestView[][] = [];
  let index = -1;
  const current = (): SessionPlan => {
    const plan = plans[index];
    if (plan === undefined) throw new Error("No conformance session has started");
    return plan;
  };
  return {
    plan(next) {
      plans = [...next];
      requests = next.map(() => []);
      index = -1;
    },
    nextSession() {
      if (index + 1 >= plans.length) {
        throw new Error(`The run started session ${index + 2}, but the scenario plans ${plans.length}`);
      }
      index += 1;
      return current();
    },
    current,
    started: () => index + 1,
    fakeScript(request) {
      requests[index]?.push(request);
      return planReply(current(), request);
    },
    requestsOf: (i) => requests[i] ?? [],
  };
}
