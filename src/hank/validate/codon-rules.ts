import { error, type JsonPath, type ValidationIssue, warning } from "../issues.ts";
import type { Codon } from "../schema/index.ts";
import { DEFAULT_MAX_EXTENSIONS } from "../schema/index.ts";
import { dangerousCommand } from "./dangerous-commands.ts";
import type { HankView, PlacedCodon } from "./hank-view.ts";

/** Rules about one codon's own fields that the schema cannot express. */
export function checkCodonRules(placed: PlacedCodon): ValidationIssue[] {
  const { codon, path } = placed;
  return [...promptRules(codon, path), ...policyRules(codon, path), ...commandRules(codon, path)];
}

/** The hank-level system prompt forms are mutually exclusive too. */
export function checkGlobalPromptRules(view: HankView): ValidationIssue[] {
  if (view.globalSystemPromptFile === undefined || view.globalSystemPromptText === undefined) return [];
  return [
    error(
      "conflicting-global-system-prompt",
      ["globalSystemPromptText"],
      "Cannot specify both globalSystemPromptFile and globalSystemPromptText",
      "Keep one: the file form for long prompts, the text form for a line or two.",
    ),
  ];
}

function promptRules(codon: Codon, path: JsonPath): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  if (codon.promptFile === undefined && codon.promptText === undefined) {
    out.push(
      error(
        "missing-prompt",
        path,
        "Either promptFile or promptText must be provided.",
        'Add "promptFile": "prompts/<name>.md" or "promptText": "<what the agent should do>".',
      ),
    );
  }
  if (codon.promptFile !== undefined && codon.promptText !== undefined) {
    out.push(
      error(
        "conflicting-prompt",
        [...path, "promptText"],
        "Cannot specify both promptFile and promptText.",
        "Keep one: promptFile for a prompt kept in a file, promptText for an inline prompt.",
      ),
    );
  } else if (codon.promptText !== undefined && codon.promptText.trim() === "") {
    out.push(
      warning("prompt-text-empty", [...path, "promptText"], "promptText is empty.", "Write the prompt."),
    );
  }
  if (codon.appendSystemPromptFile !== undefined && codon.appendSystemPromptText !== undefined) {
    out.push(
      error(
        "conflicting-system-prompt",
        [...path, "appendSystemPromptText"],
        "Cannot specify both appendSystemPromptFile and appendSystemPromptText.",
        "Keep one: the file form for long prompts, the text form for a line or two.",
      ),
    );
  }
  return out;
}

function policyRules(codon: Codon, path: JsonPath): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  if (codon.retryConfig !== undefined && codon.onFailure !== "retry") {
    out.push(
      error(
        "retry-config-without-retry",
        [...path, "retryConfig"],
        "retryConfig can only be used when onFailure is 'retry'.",
        'Set "onFailure": "retry", or remove "retryConfig".',
      ),
    );
  }
  if (codon.exhaustWithPrompt === undefined) {
    if (codon.maxExtensions !== undefined) {
      out.push(
        warning(
          "max-extensions-without-exhaust",
          [...path, "maxExtensions"],
          "maxExtensions has no effect without exhaustWithPrompt.",
          'Add "exhaustWithPrompt", or remove "maxExtensions".',
        ),
      );
    }
    return out;
  }
  if (codon.exhaustWithPrompt.trim() === "") {
    out.push(
      error(
        "empty-exhaust-prompt",
        [...path, "exhaustWithPrompt"],
        "exhaustWithPrompt is empty; an extension needs a prompt to send.",
        'Write the prompt sent after each completion, e.g. "Continue with the next item.".',
      ),
    );
  }
  if (codon.autoCompact === true) {
    const limit = codon.maxExtensions ?? DEFAULT_MAX_EXTENSIONS;
    out.push(
      warning(
        "exhaust-with-auto-compact",
        [...path, "autoCompact"],
        `exhaustWithPrompt with autoCompact: the session is compacted instead of exhausted, so the codon runs until maxExtensions (${limit}) forces completion.`,
        'Remove "autoCompact" so the context boundary ends the codon, or lower "maxExtensions".',
      ),
    );
  }
  return out;
}

function commandRules(codon: Codon, path: JsonPath): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  codon.rigSetup?.forEach((op, k) => {
    if (op.type === "command")
      out.push(...commandIssues(op.command.run, [...path, "rigSetup", k, "command", "run"]));
  });
  codon.outputFiles?.forEach((group, g) => {
    group.beforeCopy?.forEach((command, k) => {
      out.push(
        ...commandIssues(command.command.run, [...path, "outputFiles", g, "beforeCopy", k, "command", "run"]),
      );
    });
  });
  return out;
}

function commandIssues(run: string, path: JsonPath): ValidationIssue[] {
  if (run.trim() === "") {
    return [
      error(
        "empty-command",
        path,
        "Empty command",
        'Write the shell command to run in "run", or remove the operation.',
      ),
    ];
  }
  const danger = dangerousCommand(run);
  if (danger === undefined) return [];
  return [
    warning(
      "dangerous-command",
      path,
      `Command ${JSON.stringify(run)} looks dangerous: it ${danger}.`,
      "Check the command; scope deletions to paths inside the workspace.",
    ),
  ];
}
