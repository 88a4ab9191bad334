import { existsSync, readFileSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { LIMIT_KEYS, type LimitConfig } from "../model/limits.ts";
import { SandboxSettingSchema } from "../model/sandbox-setting.ts";

/**
 * The loop limits of `~/.hankweave/config.toml`: per-kind defaults and the daemon's ceilings.
 *
 * ```toml
 * [loops.defaults.delivery]
 * iteration_cap = 20
 * [loops.ceilings]
 * iteration_cap = 200
 * window = 10
 * ```
 */
const Limits = z.strictObject(Object.fromEntries(LIMIT_KEYS.map((key) => [key, z.int().min(0).optional()])));

const ConfigFile = z.looseObject({
  loops: z
    .strictObject({
      defaults: z.strictObject({ delivery: Limits.optional(), watch: Limits.optional() }).optional(),
      ceilings: Limits.optional(),
      // The sandbox of every Loop whose definition has no [sandbox] of its own.
      sandbox: SandboxSettingSchema.optional(),
      // Where the store and the runs' directories are; read by the CLI (`loops-context.ts`), not here.
      store: z.string().min(1).optional(),
      home: z.string().min(1).optional(),
    })
    .optional(),
});

export type LimitConfigRead =
  | { readonly ok: true; readonly config: LimitConfig }
  | { readonly ok: false; readonly message: string };

export function readLimitConfig(path: string): LimitConfigRead {
  if (!existsSync(path)) return { ok: true, config: {} };
  let raw: unknown;
  try {
    raw = parseToml(readFileSync(path, "utf8"));
  } catch (caught) {
    return {
      ok: false,
      message: `${path} is not valid TOML: ${caught instanceof Error ? caught.message.split("\n")[0] : String(caught)}`,
    };
  }
  const parsed = ConfigFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") ?? "";
    return {
      ok: false,
      message: `${path}: ${where}: ${issue?.message ?? "invalid"}. Known limits: ${LIMIT_KEYS.join(", ")}.`,
    };
  }
  const loops = parsed.data.loops;
  return {
    ok: true,
    config: {
      ...(loops?.defaults !== undefined && { defaults: loops.defaults }),
      ...(loops?.ceilings !== undefined && { ceilings: loops.ceilings }),
      ...(loops?.sandbox !== undefined && { sandbox: loops.sandbox }),
    } as LimitConfig,
  };
}
