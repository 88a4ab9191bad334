/** The `--help` texts of the rollback and checkpoints subcommands. */

export function rollbackHelp(): string {
  return [
    "hankweave rollback: move an execution back to one of its checkpoints.",
    "",
    "Usage:",
    "  hankweave rollback <target> -e <execution> [--type <type>] [--restart] [run options]",
    "  hankweave rollback --abandon -e <execution>",
    "",
    "  target   a checkpoint id or a unique prefix of at least 4 hex digits,",
    "           a codon id (runtime id such as edit#1, or config id for its latest execution),",
    "           or last-success (the latest completed checkpoint)",
    "",
    "Options:",
    "  --type <type>      which checkpoint of the codon: start, end, rig-setup, completed (default),",
    "                     error, skipped. start is the state before the codon ran; end its latest.",
    "  --restart          run the hank from the rolled-back point at once",
    "  --abandon          give up a rollback that was interrupted: the checkpointed files go back to",
    "                     where the execution stood, and it resumes from there",
    "  -e, --execution    the execution directory (required)",
    "  Run options (-m, --headless, --max-cost, -y, ...) apply to the restart.",
    "",
    "The tracked files become the checkpoint's, files created since are removed, files archived since",
    "are put back, and a continuation run on a new branch picks up from there (now with --restart, or",
    "the next time the execution runs). List the checkpoints with: hankweave checkpoints -e <execution>",
    "",
  ].join("\n");
}

export function checkpointsHelp(): string {
  return [
    "hankweave checkpoints: list an execution's checkpoints, per run.",
    "",
    "Usage:",
    "  hankweave checkpoints -e <execution> [--json]",
    "",
    "  --json   one checkpoint.list payload per line, as the server sends them",
    "",
    "Checkpoints on the current line are marked with *; the others were abandoned by a rollback.",
    "",
  ].join("\n");
}
