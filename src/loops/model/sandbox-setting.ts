import { z } from "zod";

/**
 * Where a Loop's body, gates, hooks and sources run: `none` (the driver's own rights) or `bwrap`
 * (Debian's bubblewrap, Linux): they see their execution writable, the data read-only, and neither
 * the pinned contract, the store, the daemon's home nor its token; `network = false` cuts the network.
 */
export const SANDBOX_KINDS = ["none", "bwrap"] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

export const SandboxSettingSchema = z.strictObject({
  kind: z.enum(SANDBOX_KINDS).describe('"bwrap" runs the body, gates and hooks in bubblewrap'),
  network: z.boolean().default(true).describe("false: no network inside the sandbox"),
});

export type SandboxSetting = z.output<typeof SandboxSettingSchema>;

/** The definition's `[sandbox]`, else the daemon default (`[loops.sandbox]`), else none. */
export function effectiveSandbox(
  fromDefinition: SandboxSetting | undefined,
  daemonDefault: SandboxSetting | undefined,
): SandboxSetting | null {
  const chosen = fromDefinition ?? daemonDefault;
  return chosen === undefined || chosen.kind === "none" ? null : chosen;
}
