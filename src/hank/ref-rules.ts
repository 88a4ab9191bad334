/**
 * The rules of the strict path contract for hank refs (promptFile, appendSystemPromptFile,
 * globalSystemPromptFile, sentinel config files, rig copy `from`), their fix hints, and the
 * quoting used in every message.
 */

/** Why a hank ref was rejected. Stable names: they appear in issue codes as `ref-<rule>`. */
export type RefRule =
  | "empty"
  | "absolute"
  | "windows-drive"
  | "backslash"
  | "nul-byte"
  | "escapes-hank-dir"
  | "symlink"
  | "not-found"
  | "not-a-file"
  | "not-a-directory"
  | "special-file"
  | "unreadable"
  | "copy-from-hank-dir"
  | "tree-symlink"
  | "tree-special";

/** What kind of entry a ref must name. `any` accepts a regular file or a directory. */
export type RefExpect = "file" | "directory" | "any";

export type RefCheck =
  | {
      readonly ok: true;
      /** The hank dir as given, joined with the normalized ref. */
      readonly absolutePath: string;
      /** The ref normalized (`./a//b` → `a/b`); `.` for the hank dir itself. */
      readonly relativePath: string;
      readonly kind: "file" | "directory";
      /** Size in bytes of the final entry, as lstat reports it. */
      readonly size: number;
    }
  | {
      readonly ok: false;
      readonly rule: RefRule;
      /** A full sentence, e.g. `"prompts/a.md" does not exist`; callers prefix the field and context. */
      readonly message: string;
      /** The part that follows the quoted ref, e.g. `does not exist`. */
      readonly phrase: string;
      /** Where the ref resolved to, when it got that far. */
      readonly absolutePath?: string;
      /** The offending entry (a symlink component, a FIFO inside a copied tree), hank-relative. */
      readonly entry?: string;
    };

const RELATIVE = "hank refs must be relative paths inside the hank directory";

/** How to fix each rule; callers put this in the hint. */
export const REF_HINTS: Readonly<Record<RefRule, string>> = {
  empty: 'Name a file relative to the hank directory, e.g. "prompts/main.md".',
  absolute: `Use a path relative to the hank directory; ${RELATIVE}.`,
  "windows-drive": `Use a path relative to the hank directory with "/" separators; ${RELATIVE}.`,
  backslash: 'Write the path with "/" separators, e.g. "prompts/main.md".',
  "nul-byte": "Remove the NUL character from the path.",
  "escapes-hank-dir":
    'Move the file into the hank directory (or a subdirectory of it) and reference it from there, without "..".',
  symlink: "Replace the symlink with the real file or directory; symlinks are not followed in hank refs.",
  "not-found": "Check the spelling; refs are relative to the directory that holds hank.json.",
  "not-a-file": "Point the ref at a regular file.",
  "not-a-directory": "Point the ref at a directory.",
  "special-file":
    "Point the ref at a regular file or a directory; FIFOs, sockets and devices cannot be used.",
  unreadable: "Check the file's permissions.",
  "copy-from-hank-dir":
    "Move the files to copy into a subdirectory of the hank directory and copy that subdirectory.",
  "tree-symlink": "Replace the symlink inside the copied tree with a real file or directory, or remove it.",
  "tree-special": "Remove the FIFO, socket or device from the copied tree.",
};

/**
 * Quotes a path for a message: plain double quotes around the text as written, with control
 * characters (NUL included) escaped so the message stays printable. Backslashes are kept as they are
 * so `C:\x` reads as the user wrote it.
 */
export function quotePath(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, "0")}` : char;
  }
  return `"${out}"`;
}

/** A rejected ref as a value: the message is the quoted ref followed by the phrase. */
export function refFailure(
  rule: RefRule,
  ref: string,
  phrase: string,
  extra: { absolutePath?: string; entry?: string } = {},
): RefCheck {
  return { ok: false, rule, message: `${quotePath(ref)} ${phrase}`, phrase, ...extra };
}
