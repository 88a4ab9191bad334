/**
 * What `hankweave` prints when called with nothing to do: no arguments that name a hank, data, an
 * execution or a command, and no hank.json in the current directory. A static text (no animation, no
 * question), so it is the same on a terminal and in a pipe; the exit code is 0.
 */
export function welcomeText(version: string): string {
  return [
    `Welcome to hankweave ${version}.`,
    "",
    "There is no hank.json here. To start:",
    "  hankweave --init                    create a starter hank in this (empty) directory",
    "  hankweave -m scripted --headless    then run it offline, with no API key",
    "",
    "Or run an existing hank:",
    "  hankweave path/to/hank.json [data]",
    "  hankweave --validate path/to/hank.json",
    "",
    "Examples ship with the package (examples/hello, examples/revise-loop); hankweave --help lists",
    "every option.",
    "",
  ].join("\n");
}
