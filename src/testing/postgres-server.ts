import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A PostgreSQL server for tests: `HANKWEAVE_TEST_POSTGRES_URL` when it is set, otherwise a private
 * throwaway cluster (initdb into a temporary directory, listening on 127.0.0.1 at a free port, its unix
 * socket in that directory, fsync off) that `stop()` removes. When no PostgreSQL can start, the result
 * says why so that the caller can skip, except under CI (`CI` set), where that is an error: a CI run
 * must never pass by skipping the PostgreSQL tests.
 */
export type TestPostgres =
  | { readonly ok: true; readonly url: string; stop(): Promise<void> }
  | { readonly ok: false; readonly reason: string };

/** Where Debian and Ubuntu install PostgreSQL's server binaries, one directory per major version. */
const POSTGRES_LIB = "/usr/lib/postgresql";

/** The newest installed server's `bin` directory, if any. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(POSTGRES_LIB)) return undefined;
  const versions = readdirSync(POSTGRES_LIB)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(POSTGRES_LIB, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(POSTGRES_LIB, versions[0], "bin");
}

export async function startTestPostgres(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<TestPostgres> {
  const given = env.HANKWEAVE_TEST_POSTGRES_URL;
  if (given !== undefined && given !== "") return { ok: true, url: given, stop: async () => undefined };
  const started = await startPrivateCluster().catch((caught: unknown) => ({
    ok: false as const,
    reason: caught instanceof Error ? caught.message : String(caught),
  }));
  if (!started.ok && env.CI !== undefined && env.CI !== "")
    throw new Error(`PostgreSQL could not start under CI: ${started.reason}`);
  return started;
}

async function startPrivateCluster(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (bin === undefined)
    return {
      ok: false,
      reason: `no PostgreSQL server in ${POSTGRES_LIB}/<version>/bin (apt-get install postgresql)`,
    };
  const root = mkdtempSync(join(tmpdir(), "hankweave-pg-"));
  // initdb refuses to run as root: the cluster belongs to the `postgres` user when we are root.
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? ["runuser", "-u", "postgres", "--"] : [];
  if (asRoot) chownPostgres(root);
  const data = join(root, "data");
  const port = await freePort();
  const exec = (tool: string, args: readonly string[]) => {
    const argv = [...prefix, join(bin, tool), ...args];
    return run(argv[0] as string, argv.slice(1), { env: { ...process.env, LC_ALL: "C" } });
  };
  try {
    await exec("initdb", [
      "-D",
      data,
      "-A",
      "trust",
      "-U",
      "postgres",
      "--no-locale",
      "-E",
      "UTF8",
      "--no-sync",
    ]);
    const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${root} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    await exec("pg_ctl", [
      "-D",
      data,
      "-o",
      settings,
      "-l",
      join(root, "server.log"),
      "-w",
      "-t",
      "30",
      "start",
    ]);
  } catch (caught) {
    rmSync(root, { recursive: true, force: true });
    throw caught;
  }
  return {
    ok: true,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await exec("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function chownPostgres(path: string): void {
  const fields = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((line) => line.startsWith("postgres:"))
    ?.split(":");
  if (fields === undefined || fields.length < 4)
    throw new Error("no `postgres` user to own the test cluster (initdb refuses to run as root)");
  chownSync(path, Number(fields[2]), Number(fields[3]));
}

/** A TCP port free on 127.0.0.1 at the time of asking (for a server started by a test). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
