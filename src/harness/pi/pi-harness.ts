import { type ResolvedModel, resolveModel } from "../../hank/models/index.ts";
import { loadOnce } from "../../util/load-once.ts";
import type { Harness } from "../harness.ts";
import { createSession } from "../session-channel.ts";
import type { PiHarnessOptions } from "./pi-options.ts";
import { importPiSdk, type PiSdkLoad } from "./pi-sdk.ts";

function catalogModel(requested: string): ResolvedModel | undefined {
  const resolution = resolveModel(requested);
  return resolution.ok ? resolution.model : undefined;
}

/**
 * The session's code, loaded with the first session: validation and runs of other harnesses never
 * compile it.
 */
const sessionCode = loadOnce(() => import("./run-pi-session.ts"));

/**
 * The pi harness (docs/harnesses.md, "pi"): runs a codon on the embedded pi coding agent
 * (`@mariozechner/pi-coding-agent` 0.73) in-process, for every provider but Anthropic by default and
 * for any `pi/<provider>/<model>` id. The SDK is imported when the first session starts, never at
 * module load; a missing SDK fails that session permanently with an install hint.
 *
 * `loadSdk` exists for tests (a missing SDK); the default imports the installed packages once per
 * harness instance.
 */
export function createPiHarness(
  options: PiHarnessOptions,
  loadSdk: () => Promise<PiSdkLoad> = importPiSdk,
): Harness {
  let loading: Promise<PiSdkLoad> | undefined;
  const context = {
    options,
    loadSdk: () => {
      loading ??= loadSdk();
      return loading;
    },
    clock: options.clock ?? { now: () => Date.now() },
    resolveModel: options.resolveModel ?? catalogModel,
  };
  return {
    name: "pi",
    capabilities: { resume: true, reportsCost: true, compaction: true },
    start: (request) =>
      createSession(async (emit) => {
        const { runPiSession } = await sessionCode();
        return runPiSession(request, context, emit);
      }),
  };
}
