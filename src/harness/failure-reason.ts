/** A classified failure; one definition, in the event vocabulary the journal records. */
export type { FailureReason, FailureType } from "../events/payloads-common.ts";
