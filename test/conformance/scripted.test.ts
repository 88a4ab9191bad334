import { scriptedConformanceSetup } from "../../src/testing/harness-conformance/targets/scripted-target.ts";
import { runHarnessConformance } from "../../src/testing/index.ts";

// The offline scripted agent: each session's plan becomes its prompt's directives.
runHarnessConformance("scripted", scriptedConformanceSetup());
