/**
 * Shell commands that look destructive. Rig and beforeCopy commands run with the user's rights, so a
 * slip like `rm -rf / tmp` is worth a warning before anything runs. Heuristic, never an error.
 */
interface DangerPattern {
  readonly pattern: RegExp;
  readonly what: string;
}

/** `rm` with both recursive and force flags, in any spelling. */
const RM_RF = String.raw`\brm\s+(?:-[a-zA-Z]*r[a-zA-Z]*f[a-zA-Z]*|-[a-zA-Z]*f[a-zA-Z]*r[a-zA-Z]*|(?:-(?:r|R|-recursive)\s+-(?:f|-force))|(?:-(?:f|-force)\s+-(?:r|R|-recursive)))\s+`;

const PATTERNS: readonly DangerPattern[] = [
  {
    pattern: new RegExp(`${RM_RF}(?:--\\s+)?/(?:\\*)?(?:\\s|$|;|&|\\|)`),
    what: "deletes the filesystem root",
  },
  {
    pattern: new RegExp(`${RM_RF}(?:--\\s+)?(?:~|\\$HOME|\\$\\{HOME\\})/?(?:\\*)?(?:\\s|$|;|&|\\|)`),
    what: "deletes the home directory",
  },
  {
    pattern: /(?:>|\bof=)\s*\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|xvd[a-z])/,
    what: "writes to a disk device",
  },
  { pattern: /\bmkfs(?:\.\w+)?\s/, what: "formats a filesystem" },
  { pattern: /\bformat\s+[a-zA-Z]:/, what: "formats a drive" },
  {
    pattern: /\bdel\s+(?:\/[a-zA-Z]\s+)*\/s\s+(?:\/[a-zA-Z]\s+)*[a-zA-Z]:\\?/i,
    what: "deletes a whole drive",
  },
  { pattern: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, what: "is a fork bomb" },
];

/** What the command would do, when it matches a destructive pattern. */
export function dangerousCommand(command: string): string | undefined {
  for (const { pattern, what } of PATTERNS) if (pattern.test(command)) return what;
  return undefined;
}
