import { piConformanceSetup } from "../../src/testing/harness-conformance/targets/pi-target.ts";
import { runHarnessConformance } from "../../src/testing/index.ts";

// The real pi SDK, in process, against the fake OpenAI server.
runHarnessConformance("pi", piConformanceSetup());
