/** The runtime lock: one live hankweave process per execution directory. */
export {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_STALE_AFTER_MS,
  judgeLock,
  type LockRecord,
  type LockVerdict,
  parseLockRecord,
} from "./lock-record.ts";
export { isProcessAlive } from "./process-liveness.ts";
export {
  type AcquireLockOptions,
  acquireLock,
  type HeartbeatProblem,
  inspectLock,
  type LockAcquisition,
  type LockCheck,
  type LockClock,
  type LockInspection,
  type LockRelease,
  type RuntimeLock,
  type StaleLock,
} from "./runtime-lock.ts";
