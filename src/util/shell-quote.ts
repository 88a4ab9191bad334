/** Quotes one argument for a POSIX shell, leaving plain words (paths, model ids) untouched. */
export function shellQuote(argument: string): string {
  if (/^[\w@%+=:,./-]+$/.test(argument)) return argument;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** A command line the user can paste into a shell. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}
