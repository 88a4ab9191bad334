export { formatScriptErrors, parseScript } from "./parse-script.ts";
export type { ParsedScript, ScriptError, ScriptStep, ScriptUsage } from "./script-step.ts";
export { DIRECTIVE_NAMES } from "./script-step.ts";
export { createScriptedHarness } from "./scripted-harness.ts";
export type { ScriptedHarnessOptions } from "./scripted-options.ts";
export { SCRIPTED_TOOLS } from "./tool-steps.ts";
