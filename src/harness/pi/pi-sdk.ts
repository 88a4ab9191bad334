import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type * as PiAi from "@mariozechner/pi-ai";
import type * as PiAgent from "@mariozechner/pi-coding-agent";

/**
 * The pi SDK, loaded on demand. Importing it takes about 1.7 s (every provider client is loaded), so
 * nothing here imports it at module load: only `importPiSdk()` does, when a pi session starts.
 */
export interface PiSdk {
  readonly agent: typeof PiAgent;
  readonly ai: typeof PiAi;
}

export type PiSdkLoad =
  | { readonly ok: true; readonly sdk: PiSdk }
  | { readonly ok: false; readonly message: string };

export const PI_AGENT_PACKAGE = "@mariozechner/pi-coding-agent";
const AI_PACKAGE = "@mariozechner/pi-ai";
/** The versions this harness was built and tested against. */
export const PI_SUPPORTED_RANGE = "0.73.x";

export const PI_INSTALL_COMMAND = `npm install ${PI_AGENT_PACKAGE}@0.73 ${AI_PACKAGE}@0.73`;

export const PI_INSTALL_HINT =
  `The pi harness needs the optional packages ${PI_AGENT_PACKAGE} and ${AI_PACKAGE} (${PI_SUPPORTED_RANGE}). ` +
  `Install them with: ${PI_INSTALL_COMMAND}`;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Imports both packages; a missing or broken install is a value with the install hint, never a throw. */
export async function importPiSdk(): Promise<PiSdkLoad> {
  try {
    const [agent, ai] = await Promise.all([
      import("@mariozechner/pi-coding-agent"),
      import("@mariozechner/pi-ai"),
    ]);
    return { ok: true, sdk: { agent, ai } };
  } catch (error) {
    return { ok: false, message: `${PI_INSTALL_HINT} (${errorText(error)})` };
  }
}

export type PiAvailability =
  | { readonly ok: true; readonly version: string; readonly supported: boolean }
  | { readonly ok: false; readonly message: string };

function packageVersion(entryUrl: string): string {
  // The entry is <package>/dist/index.js; package.json sits one level above dist/.
  const manifest = new URL("../package.json", entryUrl);
  const parsed: unknown = JSON.parse(readFileSync(fileURLToPath(manifest), "utf8"));
  const version =
    typeof parsed === "object" && parsed !== null && "version" in parsed ? parsed.version : undefined;
  return typeof version === "string" ? version : "unknown";
}

/**
 * Whether the pi SDK can be loaded, found by module resolution alone (no import, so it is cheap).
 * `supported` says whether the installed version is the tested 0.73 line.
 */
export function checkPiAvailable(): PiAvailability {
  try {
    import.meta.resolve(AI_PACKAGE);
    const version = packageVersion(import.meta.resolve(PI_AGENT_PACKAGE));
    return { ok: true, version, supported: version.startsWith("0.73.") };
  } catch (error) {
    return { ok: false, message: `${PI_INSTALL_HINT} (${errorText(error)})` };
  }
}
