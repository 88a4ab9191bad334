/**
 * The command-line flag table: one row per flag, the single source for argv scanning, commander
 * registration and the help text. Names and kinds follow the reference runtime's CLI so that existing
 * scripts keep working; flags whose feature has not landed are accepted by name and refused with a
 * clear message (`pending` says which feature they wait for).
 */
export type FlagKind = "boolean" | "value";

export interface FlagSpec {
  /** Canonical long name, with the leading `--`. */
  readonly long: string;
  /** One-letter form, with the leading `-`. */
  readonly short?: string;
  /** Other long spellings that mean the same flag. */
  readonly aliases?: readonly string[];
  readonly kind: FlagKind;
  /** Placeholder shown in the help text for value flags. */
  readonly valueName?: string;
  readonly description: string;
  /** Set when the flag's feature is not in this version: what it waits for. */
  readonly pending?: string;
  /** Set with `pending` for a feature that will not come: why (shown by --help and the refusal). */
  readonly notPlanned?: string;
  /** Set for spellings kept only for old scripts: the flag to use instead. */
  readonly deprecatedFor?: string;
}

const PROXY_NOT_PLANNED =
  "hankweave calls providers through their own SDKs; point a harness at a proxy of your own with its base-URL variable (ANTHROPIC_BASE_URL...)";

export const FLAGS: readonly FlagSpec[] = [
  {
    long: "--validate",
    short: "-v",
    kind: "boolean",
    description: "Check the hank and print its plan; run nothing, create nothing.",
  },
  {
    long: "--model",
    short: "-m",
    kind: "value",
    valueName: "model",
    description: "Use this model for every codon (applied before validation).",
  },
  {
    long: "--config",
    kind: "value",
    valueName: "path",
    description: "The hank file or directory (instead of the first positional).",
  },
  {
    long: "--data",
    kind: "value",
    valueName: "path",
    description: "The data source the agents read (default: the hank directory).",
  },
  {
    long: "--execution",
    short: "-e",
    kind: "value",
    valueName: "path",
    description: "Use this execution directory: created when absent, resumed when it holds a run.",
  },
  {
    long: "--start-new",
    short: "-n",
    aliases: ["--new"],
    kind: "boolean",
    description: "Start a new execution; never resume.",
  },
  {
    long: "--force",
    short: "-f",
    kind: "boolean",
    description: "Override safety checks (changed data, an existing .hankweave/ is backed up).",
  },
  {
    long: "--ignore-data-mismatch",
    kind: "boolean",
    deprecatedFor: "--force",
    description: "Old spelling of --force.",
  },
  { long: "--yes", short: "-y", kind: "boolean", description: "Answer yes to confirmation prompts." },
  {
    long: "--headless",
    kind: "boolean",
    description: "No TUI: print plain progress lines and start at once.",
  },
  {
    long: "--json",
    kind: "boolean",
    description:
      "With --validate or a run: one JSON object on stdout at the end (a run is then headless; progress stays on stderr).",
  },
  {
    long: "--max-cost",
    kind: "value",
    valueName: "usd",
    description: "Stop the run when it has cost this many US dollars.",
  },
  {
    long: "--max-time",
    kind: "value",
    valueName: "seconds",
    description: "Stop the run after this many seconds of wall-clock time.",
  },
  {
    long: "--output",
    short: "-o",
    kind: "value",
    valueName: "path",
    description: "Copy each codon's outputFiles into this directory.",
  },
  {
    long: "--overwrite-output",
    kind: "boolean",
    description: "Overwrite files in the output directory instead of renaming the new copy.",
  },
  {
    long: "--copy",
    kind: "boolean",
    description: "Copy the data source into the workspace instead of linking it.",
  },
  {
    long: "--durable",
    kind: "boolean",
    description:
      "fsync the journal at every codon boundary (survives power loss; default: HANKWEAVE_RUNTIME_DURABLE_JOURNAL).",
  },
  {
    long: "--otel",
    kind: "boolean",
    description:
      "Export OpenTelemetry traces of the run (OTLP/HTTP; endpoint from OTEL_EXPORTER_OTLP_ENDPOINT, default localhost:4318).",
  },
  {
    long: "--ignore-rig-failures",
    kind: "boolean",
    description: "Treat every rigSetup operation as allowFailure: true.",
  },
  {
    long: "--shim-idle-timeout",
    kind: "value",
    valueName: "seconds",
    description: "Abort an agent session after this many silent seconds (1-1800).",
  },
  {
    long: "--replay",
    kind: "value",
    valueName: "execution",
    description: "Run the hank again as a new execution answered from this recorded one: no model is called.",
  },
  {
    long: "--no-wipe",
    kind: "boolean",
    description: "With --start-new --force, keep the existing agentRoot/.",
  },
  {
    long: "--input",
    short: "-i",
    kind: "value",
    valueName: "text",
    description: "Use this text as the data source (stored in ~/.hankweave-cache/inputs/); - reads stdin.",
  },
  {
    long: "--open",
    kind: "boolean",
    description: "Print the run's web page address (/ui/ on the server's port) and open it in a browser.",
  },
  {
    long: "--port",
    short: "-p",
    kind: "value",
    valueName: "port",
    description: "Port of the WebSocket server (default 0: any free port, printed and kept in the lock).",
  },
  {
    long: "--host",
    kind: "value",
    valueName: "address",
    description: "Address the WebSocket server listens on (default 127.0.0.1; others need a token).",
  },
  {
    long: "--token",
    kind: "value",
    valueName: "token",
    description: "Token WebSocket clients must present (generated and printed when --host is not loopback).",
  },
  {
    long: "--no-autostart",
    kind: "boolean",
    description: "Open the run paused: a client's codon.next (or codon.start) starts the first codon.",
  },
  {
    long: "--proxy",
    kind: "boolean",
    pending: "the LLM proxy",
    notPlanned: PROXY_NOT_PLANNED,
    description: "Route model calls through the local LLM proxy.",
  },
  {
    long: "--without-proxy",
    kind: "boolean",
    description: "Call models directly: what hankweave always does (kept for old scripts).",
  },
  {
    long: "--anthropic-base-url",
    kind: "value",
    valueName: "url",
    pending: "the LLM proxy",
    notPlanned: PROXY_NOT_PLANNED,
    description: "Upstream URL for the LLM proxy.",
  },
  {
    long: "--idle-timeout",
    kind: "value",
    valueName: "seconds",
    description: "Close idle WebSocket connections after this many seconds (0-255, 0 = never).",
  },
  {
    long: "--init",
    kind: "boolean",
    description: "Create a starter hank in the current, empty directory.",
  },
  {
    long: "--cleanup",
    kind: "boolean",
    description: "List the executions (-e: one) that would be removed; with -y, remove them.",
  },
  {
    long: "--restore-journal",
    kind: "value",
    valueName: "execution",
    description: "Rebuild the original journal of an execution dieted with --diet-journal.",
  },
  {
    long: "--diet-journal",
    kind: "value",
    valueName: "execution",
    description: "Move the long bodies of a finished run's journal into its cas/ (reversible).",
  },
  {
    long: "--attach",
    kind: "boolean",
    description: "Watch a run in another process read-only: --attach <execution | port>, or with -e / -p.",
  },
  { long: "--help", short: "-h", kind: "boolean", description: "Show this help." },
  { long: "--version", kind: "boolean", description: "Print the version." },
];

/** Finds a flag by any of its spellings (`-v`, `--validate`, an alias). */
export function findFlag(name: string): FlagSpec | undefined {
  return FLAGS.find(
    (flag) => flag.long === name || flag.short === name || flag.aliases?.includes(name) === true,
  );
}
