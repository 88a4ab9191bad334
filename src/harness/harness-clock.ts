import type { Clock } from "../util/clock.ts";

/** Time as the scripted and command harnesses use it: the runtime's one clock, injected. */
export type HarnessClock = Clock;
