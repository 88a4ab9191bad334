export * from "./budget.ts";
export * from "./codon.ts";
export * from "./hank.ts";
export * from "./loop.ts";
export * from "./rig.ts";
export * from "./sentinel.ts";
