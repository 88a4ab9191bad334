import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CONFIG_INCLUDE_FILE,
  type GitIdentity,
  INFO_ATTRIBUTES,
  INFO_EXCLUDE,
  repositoryConfigText,
} from "./git-environment.ts";

/**
 * The store's files whose content the checkpointer owns: `info/attributes` (byte-exact checkpoints, no
 * filter driver), `info/exclude` (the mandatory excludes) and the included config file. Anything in the
 * execution can write them, an agent included; `check` puts back the expected content before a git
 * process reads them. Reading three small files costs microseconds; a git process milliseconds.
 */
export class StoreFilesGuard {
  readonly #files: ReadonlyArray<readonly [path: string, content: string]>;
  #armed = false;
  #restored = 0;

  constructor(gitDir: string, identity: GitIdentity) {
    this.#files = [
      [join(gitDir, "info", "attributes"), INFO_ATTRIBUTES],
      [join(gitDir, "info", "exclude"), INFO_EXCLUDE],
      [join(gitDir, CONFIG_INCLUDE_FILE), repositoryConfigText(identity)],
    ];
  }

  /** From now on `check` guards the files (init has written them). */
  arm(): void {
    this.#armed = true;
  }

  /** How many times a file was found changed and put back. */
  get restored(): number {
    return this.#restored;
  }

  check(): void {
    if (!this.#armed) return;
    for (const [path, content] of this.#files) {
      let current: string | undefined;
      try {
        current = readFileSync(path, "utf8");
      } catch {
        current = undefined;
      }
      if (current === content) continue;
      writeFileSync(path, content);
      this.#restored++;
    }
  }
}
