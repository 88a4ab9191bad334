import path from "node:path";

export interface PackOptions {
  /** The hank file or its directory, absolute. */
  readonly target: string;
  /** Where the bundle goes, absolute; undefined: the default name in the cwd. */
  readonly output?: string;
  readonly check: boolean;
  readonly writeLock: boolean;
  readonly minRuntime?: string;
}

export type PackArgs =
  | { readonly kind: "help" }
  | { readonly kind: "pack"; readonly options: PackOptions }
  | { readonly kind: "usage"; readonly message: string };

/** `hankweave pack [hank] [-o out.hank] [--check] [--no-lock] [--min-runtime <semver>]`. */
export function parsePackArgs(argv: readonly string[], cwd: string): PackArgs {
  const positionals: string[] = [];
  let output: string | undefined;
  let minRuntime: string | undefined;
  let check = false;
  let writeLock = true;
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] ?? "";
    if (token === "-h" || token === "--help") return { kind: "help" };
    if (token === "--check") check = true;
    else if (token === "--no-lock") writeLock = false;
    else if (token === "-o" || token === "--output" || token === "--min-runtime") {
      const value = argv[index + 1];
      if (value === undefined || value.startsWith("-")) return usage(`Flag '${token}' requires a value.`);
      index++;
      if (token === "--min-runtime") minRuntime = value;
      else output = value;
    } else if (token.startsWith("-")) return usage(`Unknown argument '${token}'.`);
    else positionals.push(token);
  }
  if (positionals.length > 1)
    return usage(`pack takes one hank (a directory or hank.json), got ${positionals.length}.`);
  if (output !== undefined && !/\.(?:hank|tar\.zst)$/i.test(output)) {
    return usage(`--output must end in .hank or .tar.zst: '${output}'.`);
  }
  if (minRuntime !== undefined && !/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/.test(minRuntime)) {
    return usage(`--min-runtime must be a semver such as 0.12.0: '${minRuntime}'.`);
  }
  const options: PackOptions = {
    target: path.resolve(cwd, positionals[0] ?? "."),
    check,
    writeLock,
    ...(output !== undefined && { output: path.resolve(cwd, output) }),
    ...(minRuntime !== undefined && { minRuntime }),
  };
  return { kind: "pack", options };
}

function usage(message: string): PackArgs {
  return { kind: "usage", message };
}

export const PACK_HELP = `Usage: hankweave pack [hank] [options]

Packs a hank (a directory holding hank.json, or the file; default: .) into one verifiable bundle: a
zstd-compressed tar whose first member, hank.lock, records every file's sha256 and mode, a digest of
each codon's inputs, and the bundleHash that names the whole. Run it with: hankweave <bundle.hank> [data]

Options:
  -o, --output <file>       where to write the bundle (.hank or .tar.zst; default: <name>-<version>.hank here)
  --check                   lint only: report what would stop the pack, write nothing
  --no-lock                 do not write hank.lock beside hank.json
  --min-runtime <semver>    the oldest hankweave that may run the bundle (default: this version)
  -h, --help                this text

Exit status: 0 packed (warnings allowed), 1 lint errors or a failed pack, 2 usage error.
`;
