import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { HankFile } from "../hank/schema/index.ts";
import { isSecret, secretMatches } from "../hank/validate/index.ts";
import { createSecretMask, type SecretMask } from "../journal/index.ts";

/**
 * The secret values a run knows, masked in its journal and broadcasts (see secret-mask.ts):
 * - the value of every variable of the run's environment and of each codon's `env` that is a secret by
 *   its name (`API_KEY`, `DB_PASSWORD`) or by its value's shape (`sk-ant-…`), when it is at least
 *   `MIN_SECRET_LENGTH` characters and not a path (`SSH_AUTH_SOCK`, and `PWD`, which names the
 *   working directory, not a password): a shorter or path-like value would mask ordinary text;
 * - every credential-shaped part (`sk-ant-…`, `ghp_…`, a JWT, a URL's password) of the hank file and
 *   of its prompt files.
 */
export const MIN_SECRET_LENGTH = 8;

export interface SecretSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly hank: HankFile;
  readonly hankText: string;
  readonly hankDir: string;
}

export function knownSecretMask(sources: SecretSources): SecretMask {
  return createSecretMask(knownSecretValues(sources));
}

export function knownSecretValues(sources: SecretSources): string[] {
  const fromEnv = [sources.env, ...codonEnvs(sources.hank)].flatMap((env) =>
    Object.entries(env).flatMap(([name, value]) => (isKnownSecret(name, value) ? [value] : [])),
  );
  const texts = [
    sources.hankText,
    ...promptFiles(sources.hank).map((file) => readOrEmpty(sources.hankDir, file)),
  ];
  return [...fromEnv, ...texts.flatMap(secretMatches)];
}

function isKnownSecret(name: string, value: string | undefined): value is string {
  if (value === undefined || value.length < MIN_SECRET_LENGTH || value.startsWith("/")) return false;
  return isSecret(name, value);
}

type HankItem = HankFile["hank"][number];
type HankCodon = Exclude<HankItem, { type: "loop" }>;

function codonsOf(hank: HankFile): HankCodon[] {
  return hank.hank.flatMap((item): HankCodon[] => (item.type === "loop" ? item.codons : [item]));
}

function codonEnvs(hank: HankFile): Readonly<Record<string, string>>[] {
  return codonsOf(hank).flatMap((codon) => (codon.env === undefined ? [] : [codon.env]));
}

function promptFiles(hank: HankFile): string[] {
  return codonsOf(hank).flatMap((codon) =>
    [codon.promptFile, codon.appendSystemPromptFile].flatMap((refs) =>
      refs === undefined ? [] : typeof refs === "string" ? [refs] : refs,
    ),
  );
}

/** A prompt file the run cannot read fails the codon later, with its own message; here it holds nothing. */
function readOrEmpty(hankDir: string, file: string): string {
  try {
    return readFileSync(resolve(hankDir, file), "utf8");
  } catch {
    return "";
  }
}
