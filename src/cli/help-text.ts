import { FLAGS, type FlagSpec } from "./flags.ts";

/** The `--help` text, built from the flag table so that it can never list a flag the parser rejects. */
export function helpText(version: string): string {
  const ready = FLAGS.filter((flag) => flag.pending === undefined && flag.deprecatedFor === undefined);
  const pending = FLAGS.filter((flag) => flag.pending !== undefined && flag.notPlanned === undefined);
  const notPlanned = FLAGS.filter((flag) => flag.notPlanned !== undefined);
  const width = Math.max(...FLAGS.map((flag) => spelling(flag).length)) + 2;
  const lines = [
    `hankweave ${version}: run hanks of AI-agent codons and loops, budgeted, checkpointed and journaled.`,
    "",
    "Usage:",
    "  hankweave [options] [hank] [data]",
    "  hankweave --validate [hank]",
    "  hankweave --init",
    "  hankweave <bundle.hank> [data]",
    "  hankweave pack [hank] [-o out.hank] [--check] [--no-lock] [--min-runtime <semver>]",
    "  hankweave --replay <execution> [hank] [data]",
    "  hankweave --cleanup [-e <execution>] [-y]",
    "  hankweave --diet-journal <execution> | --restore-journal <execution>",
    "  hankweave rollback <target> -e <execution> [--type <checkpoint-type>] [--restart]",
    "  hankweave checkpoints -e <execution> [--json]",
    "  hankweave loops run|start|attach|ls|show|logs|note|pause|resume|stop|approve|reject|lint|gc|schema ...",
    "  hankweave daemon [--db <file> | --store <file|postgres://...>] [--home <dir>] [--port <n>] [--workers <n>]",
    "",
    "  hank   a hank.json file, or a directory that holds one (default: ./hank.json)",
    "  data   the data source the agents read (default: the hank directory)",
    "  A single path is the hank when it ends in .json or is a directory holding hank.json;",
    "  otherwise it is the data source. A hank may also be a bundle (.hank, .tar.zst: verified against",
    "  its hank.lock, then extracted to the cache), a bundle URL, or a git repository (git@..., git+<url>,",
    "  a GitHub/GitLab/Bitbucket URL; #<ref>[/<path>] picks a branch or tag and a folder).",
    "",
    "Options:",
    ...ready.map((flag) => `  ${spelling(flag).padEnd(width)}${flag.description}`),
    "",
    ...(pending.length === 0
      ? []
      : [
          "Accepted but not available in this version:",
          ...pending.map((flag) => `  ${spelling(flag).padEnd(width)}${flag.description}`),
          "",
        ]),
    "Not planned (accepted by name and refused, so old scripts fail clearly):",
    ...notPlanned.map((flag) => `  ${spelling(flag).padEnd(width)}${flag.description}`),
    `  Why: ${notPlanned[0]?.notPlanned ?? ""}.`,
    "",
    "Exit status: 0 when the hank is valid or the run completed; 1 for an invalid hank, a failed run",
    "or a usage error. pack: 0 packed, 1 lint errors or a failed pack, 2 usage error.",
    "",
    "Examples:",
    "  hankweave --validate examples/hello",
    "  hankweave --validate hank.json -m scripted",
    "  hankweave hank.json ./data --headless --max-cost 5",
    "  hankweave rollback edit#1 -e ~/.hankweave-executions/<id> --restart",
    "",
  ];
  return lines.join("\n");
}

function spelling(flag: FlagSpec): string {
  const names = [flag.short, flag.long, ...(flag.aliases ?? [])].filter((name) => name !== undefined);
  const value = flag.kind === "value" ? ` <${flag.valueName ?? "value"}>` : "";
  return `${names.join(", ")}${value}`;
}
