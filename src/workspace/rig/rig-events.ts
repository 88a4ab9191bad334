import type { DataOf } from "../../events/index.ts";

/**
 * The events rig setup emits, as `{type, data}` drafts of the journal's own payloads; the engine stamps
 * id and timestamp and journals them.
 */
export type RigOutputData = DataOf<"rig.output">;
export type RigOutputStream = RigOutputData["stream"];
export type RigSetupCompletedData = DataOf<"rig.setup.completed">;
export type RigSetupFailedData = DataOf<"rig.setup.failed">;
export type RigFailureType = RigSetupFailedData["failureType"];
export type RigInfoData = DataOf<"info">;

/** A non-fatal `error` event: an ignored failure, reported as a warning of severity `operation`. */
export type RigWarningData = DataOf<"error"> & { readonly fatal: false; readonly severity: "operation" };

export type RigEvent =
  | { readonly type: "rig.output"; readonly data: RigOutputData }
  | { readonly type: "rig.setup.completed"; readonly data: RigSetupCompletedData }
  | { readonly type: "rig.setup.failed"; readonly data: RigSetupFailedData }
  | { readonly type: "info"; readonly data: RigInfoData }
  | { readonly type: "error"; readonly data: RigWarningData };
