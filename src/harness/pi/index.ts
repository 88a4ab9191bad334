/** The pi harness: hankweave codons on the embedded pi coding agent (docs/harnesses.md, "pi"). */
export { endpointEnvPrefix } from "./endpoint-config.ts";
export { createPiHarness } from "./pi-harness.ts";
export type {
  PiClock,
  PiEndpointApi,
  PiEndpointModel,
  PiHarnessOptions,
  PiProviderConfig,
} from "./pi-options.ts";
export { PI_ENDPOINT_APIS } from "./pi-options.ts";
export {
  checkPiAvailable,
  importPiSdk,
  PI_INSTALL_HINT,
  type PiAvailability,
  type PiSdkLoad,
} from "./pi-sdk.ts";
export { type PiSelfTest, selfTestPi } from "./self-test.ts";
export { PI_TOOLS } from "./tool-facts.ts";
