// What kind of hank location a command-line argument is, decided from its text alone. A module of its
// own, with no imports: every command asks it before loading a hank, and only the locations it picks
// need the rest of the bundle code (archives, hashing, git).

export function isBundleName(location: string): boolean {
  const lower = location.toLowerCase().replace(/[?#].*$/, "");
  return lower.endsWith(".hank") || lower.endsWith(".tar.zst");
}

const URL_LIKE = /^(?:https?:\/\/|git@|git\+)/;

/** True for what `resolveHankLocation` turns into a local directory. */
export function needsResolution(location: string): boolean {
  return URL_LIKE.test(location) || isBundleName(location);
}
