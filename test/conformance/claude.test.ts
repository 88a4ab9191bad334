import { claudeConformanceSetup } from "../../src/testing/harness-conformance/targets/claude-target.ts";
import { runHarnessConformance } from "../../src/testing/index.ts";

// The real Claude Agent SDK (and its bundled Claude Code) against the fake Anthropic server. About 15
// sessions of about a second and 215 MB each, one after another.
runHarnessConformance("claude", claudeConformanceSetup());
