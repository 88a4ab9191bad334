import { closest } from "fastest-levenshtein";
import type { CommandConfig, NamedCommand } from "./command-config.ts";

/** Command models are named `command/<name>` or `command/<name>/<model>` (the suffix fills `{model}`). */
export const COMMAND_MODEL_PREFIX = "command/";

export interface CommandModelId {
  readonly name: string;
  /** The `<model>` part, when the id has one (it may itself contain slashes). */
  readonly model?: string;
}

/** Splits a command model id; undefined when the id is not one (no prefix, or an empty name). */
export function parseCommandModelId(id: string): CommandModelId | undefined {
  if (!id.startsWith(COMMAND_MODEL_PREFIX)) return undefined;
  const rest = id.slice(COMMAND_MODEL_PREFIX.length);
  const slash = rest.indexOf("/");
  const name = slash === -1 ? rest : rest.slice(0, slash);
  const model = slash === -1 ? "" : rest.slice(slash + 1);
  if (name === "") return undefined;
  return model === "" ? { name } : { name, model };
}

/**
 * The command model id of a session's model. Model resolution keeps the `command/` prefix in
 * `requested` only (its `id` is `<name>[/<model>]`); an id that still has the prefix is taken as is.
 */
export function commandModelIdOf(model: { readonly id: string; readonly requested: string }): string {
  return parseCommandModelId(model.id) === undefined ? model.requested : model.id;
}

export type CommandModelResolution =
  | { readonly ok: true; readonly command: NamedCommand; readonly model: string | undefined }
  | { readonly ok: false; readonly message: string; readonly suggestions: readonly string[] };

/**
 * Finds the command of a model id. The model is the id's suffix, else the command's `model` field,
 * else undefined (then only arguments without `{model}` work).
 */
export function resolveCommandModel(config: CommandConfig, id: string): CommandModelResolution {
  const parsed = parseCommandModelId(id);
  if (parsed === undefined) {
    return { ok: false, message: `"${id}" is not a command model id (command/<name>)`, suggestions: [] };
  }
  const spec = config.commands[parsed.name];
  const names = Object.keys(config.commands);
  if (spec === undefined) {
    const suggestions = names.length === 0 ? [] : [`${COMMAND_MODEL_PREFIX}${closest(parsed.name, names)}`];
    const known = names.length === 0 ? "no commands are configured" : `configured: ${names.join(", ")}`;
    return { ok: false, message: `Unknown command model "${id}" (${known})`, suggestions };
  }
  return { ok: true, command: { ...spec, name: parsed.name }, model: parsed.model ?? spec.model };
}
