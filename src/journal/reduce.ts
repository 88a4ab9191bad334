import type { JournaledEvent } from "../events/events.ts";
import type { RunState } from "./run-state.ts";
import { RunStateStore } from "./run-state-store.ts";

/**
 * The pure reducer: `reduce(state, event)` returns the state after `event` and never changes its input.
 * Events with `seq <= state.lastSeq` are already included and return `state` itself, so replaying an
 * overlap (snapshot plus journal tail) is harmless. The rules are `applyEvent`'s.
 *
 * Each call copies the state's containers, so a call costs time in proportion to the codons of the run:
 * right for one event; folds over a journal or a live run use a `RunStateStore`, which applies in place.
 */
export function reduce(state: RunState, event: JournaledEvent): RunState {
  if (event.seq <= state.lastSeq) return state;
  return new RunStateStore(state).apply(event).state;
}
