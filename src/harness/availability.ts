import type { HarnessKind } from "../spec/models/index.ts";

/** The optional SDK each harness loads, and how to install it. The others need nothing extra. */
const SDKS: Partial<Record<HarnessKind, { readonly name: string; readonly install: string }>> = {
  claude: {
    name: "@anthropic-ai/claude-agent-sdk",
    install: "npm install @anthropic-ai/claude-agent-sdk@0.3",
  },
  pi: {
    name: "@mariozechner/pi-coding-agent",
    install: "npm install @mariozechner/pi-coding-agent@0.73 @mariozechner/pi-ai@0.73",
  },
};

/**
 * Whether a harness's SDK can be found, without importing it (resolution only: validation must stay
 * light and never load a provider SDK). Undefined when it can load; otherwise the install hint.
 */
export function harnessProblem(kind: HarnessKind): string | undefined {
  const sdk = SDKS[kind];
  if (sdk === undefined) return undefined;
  try {
    import.meta.resolve(sdk.name);
    return undefined;
  } catch {
    return `${sdk.name} is not installed. Install it next to hankweave: ${sdk.install}`;
  }
}
