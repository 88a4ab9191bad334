import type { GitIdentity } from "./git-environment.ts";

/**
 * A commit object as `git commit-tree` writes it: tree, parent (none for a root commit), author,
 * committer, blank line, message.
 */
export function commitBody(
  tree: string,
  parent: string | undefined,
  author: { readonly identity: GitIdentity; readonly now: number },
  message: string,
): Buffer {
  const { identity, now } = author;
  const who = `${identPart(identity.name)} <${identPart(identity.email)}> ${Math.floor(now / 1000)} +0000`;
  const parentLine = parent === undefined ? "" : `parent ${parent}\n`;
  return Buffer.from(`tree ${tree}\n${parentLine}author ${who}\ncommitter ${who}\n\n${message}`, "utf8");
}

/** As git writes an ident: `<`, `>` and newlines dropped, surrounding punctuation and blanks trimmed. */
export function identPart(text: string): string {
  return text.replace(/[<>\n]/g, "").replace(/^[\s.,:;"'\\]+|[\s.,:;"'\\]+$/g, "");
}
