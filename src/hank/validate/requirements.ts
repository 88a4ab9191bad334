import { onPath } from "../../util/on-path.ts";
import { error, type ValidationIssue } from "../issues.ts";
import { type HankView, own } from "./hank-view.ts";

/**
 * `requirements.env`: each name must be set, directly or as `HANKWEAVE_<NAME>` (which the runtime
 * passes to the agent as `<NAME>`; the value `unset` removes the variable, so it does not count).
 * `requirements.tools`: each program must be found on PATH.
 */
export function checkRequirements(
  view: HankView,
  env: Readonly<Record<string, string | undefined>>,
  findTool: (name: string) => boolean,
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const missingEnv = unique(view.requirementsEnv).filter((name) => !envSatisfied(name, env));
  if (missingEnv.length > 0) {
    out.push(
      error(
        "missing-env",
        ["requirements", "env"],
        `Missing required environment variables: ${missingEnv.join(", ")}\nThese are declared in the hank's requirements.env field.`,
        `Set them before running, e.g. export ${missingEnv[0]}=...; HANKWEAVE_${missingEnv[0]} works too.`,
      ),
    );
  }
  const missingTools = unique(view.requirementsTools).filter((name) => !safeFind(findTool, name));
  if (missingTools.length > 0) {
    out.push(
      error(
        "missing-tools",
        ["requirements", "tools"],
        `Missing required tools on PATH: ${missingTools.join(", ")}\nThese are declared in the hank's requirements.tools field.`,
        "Install them, or add the directories that hold them to PATH.",
      ),
    );
  }
  return out;
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => n.trim()))];
}

function envSatisfied(name: string, env: Readonly<Record<string, string | undefined>>): boolean {
  const direct = own(env, name);
  if (direct !== undefined && direct !== "") return true;
  const prefixed = own(env, `HANKWEAVE_${name}`);
  return prefixed !== undefined && prefixed !== "" && prefixed !== "unset";
}

function safeFind(findTool: (name: string) => boolean, name: string): boolean {
  try {
    return findTool(name);
  } catch {
    return false;
  }
}

/** The default tool lookup: an executable regular file named `name` in a directory of `PATH`. */
export function pathToolFinder(env: Readonly<Record<string, string | undefined>>): (name: string) => boolean {
  return (name) => onPath(name, env.PATH);
}
