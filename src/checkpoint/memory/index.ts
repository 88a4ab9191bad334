export { createMemoryCheckpointer, type MemoryCheckpointerOptions } from "./memory-checkpointer.ts";
export { createMemoryCheckpointStore, type MemoryCheckpointStore } from "./memory-store.ts";
