import type { Clock } from "../../util/clock.ts";

/** Time as the process wrapper and the rig runner see it: the runtime's one clock, injected. */
export type ProcessClock = Clock;
