/**
 * Recognising secrets, so that validation never shows one, not even partly. A value is a secret when
 * its variable's name says so (`GITHUB_TOKEN`, `DB_PASSWORD`) or when the value itself has the shape
 * of a credential (`sk-ant-...`, `ghp_...`, a URL with a password, a JSON Web Token), whatever its
 * name.
 */

/** Name words that mark a secret; a word that ends in KEY, TOKEN, SECRET or PASSWORD does too (APIKEY). */
const SECRET_WORDS = new Set([
  "SECRET",
  "SECRETS",
  "TOKEN",
  "KEY",
  "KEYS",
  "PASSWORD",
  "PASSWD",
  "PASS",
  "PASSPHRASE",
  "PWD",
  "CREDENTIAL",
  "CREDENTIALS",
  "CREDS",
  "AUTH",
  "PRIVATE",
  "PAT",
  "COOKIE",
]);
const SECRET_SUFFIXES = ["KEY", "TOKEN", "SECRET", "PASSWORD"];
const PUBLIC_WORDS = new Set(["PUBLIC", "PUBLISHABLE"]);

/** The words of a variable name: split at `_`, `-`, `.` and lower-to-upper case changes. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map((word) => word.toUpperCase());
}

/**
 * Whether a variable name says it holds a secret: `API_KEY`, `githubToken`, `DB_PASS` yes;
 * `STRIPE_PUBLISHABLE_KEY` no (public by name), `MAX_OUTPUT_TOKENS` no (a count of tokens).
 */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  if (words.some((word) => PUBLIC_WORDS.has(word))) return false;
  return words.some(
    (word) =>
      SECRET_WORDS.has(word) || SECRET_SUFFIXES.some((s) => word.length > s.length && word.endsWith(s)),
  );
}

const SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bsk-ant-[A-Za-z0-9_-]{8,}/, "an Anthropic API key"],
  [/\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{16,}/, "an API key"],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}/, "a GitHub token"],
  [/\bgithub_pat_[A-Za-z0-9_]{16,}/, "a GitHub token"],
  [/\bglpat-[A-Za-z0-9_-]{16,}/, "a GitLab token"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, "an AWS access key"],
  [/\bAIza[0-9A-Za-z_-]{30,}/, "a Google API key"],
  [/\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/, "a JSON Web Token"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a private key"],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i, "a URL with a password"],
];

/** What kind of credential a value looks like (`a GitHub token`), or undefined when it looks like none. */
export function secretShape(value: string): string | undefined {
  for (const [pattern, kind] of SHAPES) if (pattern.test(value)) return kind;
  return undefined;
}

/** Whether a variable's value must be hidden: by its name, or by the shape of the value. */
export function isSecret(name: string, value: string): boolean {
  return isSecretName(name) || secretShape(value) !== undefined;
}

/**
 * The text with every credential-shaped part replaced by `****` (a URL keeps its user and host, loses
 * its password), so no message, hint or echoed value ever carries one.
 */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern] of SHAPES) {
    const global = new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`);
    out = out.replace(global, (match) => redactOne(match));
  }
  return out;
}

/**
 * Every credential-shaped part of the text, as it appears there (a URL's password alone): the values
 * to mask wherever else they show up.
 */
export function secretMatches(text: string): string[] {
  const found: string[] = [];
  for (const [pattern] of SHAPES) {
    const global = new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`);
    for (const match of text.matchAll(global)) {
      const url = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:([^\s/?#@]+)@$/i.exec(match[0]);
      found.push(url?.[1] ?? match[0]);
    }
  }
  return found;
}

/** A URL's password, or the whole match for every other shape. */
function redactOne(match: string): string {
  const url = /^([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]+@$/i.exec(match);
  return url?.[1] === undefined ? HIDDEN : `${url[1]}${HIDDEN}@`;
}

/** What validation shows instead of a secret: never any part of it. */
export const HIDDEN = "****";

/** The value as validation may show it: as is, or `****` when it is a secret by name or by shape. */
export function shownEnvValue(name: string, value: string): string {
  return isSecret(name, value) ? HIDDEN : value;
}
