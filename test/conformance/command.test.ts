import { describe, it } from "node:test";
import {
  commandConformanceSetup,
  findPiCli,
} from "../../src/testing/harness-conformance/targets/command-target.ts";
import { runHarnessConformance } from "../../src/testing/index.ts";

// The command harness driving the real pi CLI (`pi --mode json -p`, the dev dependency's
// node_modules/.bin/pi) against the fake OpenAI server: one process of about 2.5 s per session.
const piCli = findPiCli();
if (piCli !== undefined) {
  runHarnessConformance("command (pi CLI)", commandConformanceSetup(piCli));
} else {
  describe("harness conformance: command (pi CLI)", () => {
    it("needs the pi CLI", { skip: "@mariozechner/pi-coding-agent is not installed" }, () => undefined);
  });
}
