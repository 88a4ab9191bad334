import { Command, CommanderError } from "commander";
import type { CliIo } from "../cli-io.ts";
import { type LoopsContext, openLoopsContext, type StoreChoice } from "./loops-context.ts";

/**
 * The verbs load when one runs: the reading ones (`ls`, `show`, `logs`) need no runner and no daemon,
 * so they compile neither; `run` and the rest load the coordinator, `daemon` the server too.
 */
const verbs = () => import("./loops-verbs.ts");
const readVerbs = () => import("./read-verbs.ts");

/**
 * `hankweave loops <verb>`: argv (after `loops`) to a verb. Every verb works with or without a
 * daemon: it reads and writes the store, and a run's driver applies commands at its boundaries.
 */
export async function runLoopsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  let context: LoopsContext | undefined;
  const withContext =
    (choice: LoopsFlags, verb: (c: LoopsContext) => Promise<number> | number) => async () => {
      const opened = await openLoopsContext(io, choice, choice.json);
      if (typeof opened === "string") {
        io.stderr.write(`${opened}\n`);
        exitCode = 1;
        return;
      }
      context = opened;
      exitCode = await verb(opened);
    };
  const program = buildProgram(io, withContext);
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (caught) {
    if (!(caught instanceof CommanderError)) throw caught;
    exitCode = caught.code === "commander.helpDisplayed" || caught.code === "commander.help" ? 0 : 1;
  } finally {
    await context?.store.close();
  }
  return exitCode;
}

/** The store, and `--json`: flags of `hankweave loops` itself, accepted before or after the verb. */
type LoopsFlags = StoreChoice & { readonly json: boolean };

type WithContext = (
  choice: LoopsFlags,
  verb: (c: LoopsContext) => Promise<number> | number,
) => () => Promise<void>;

interface StoreOptions {
  readonly json?: boolean;
  readonly db?: string;
  readonly store?: string;
  readonly home?: string;
}

function buildProgram(io: CliIo, withContext: WithContext): Command {
  const program = new Command("hankweave loops")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .description("Durable, operated loops over hanks: definitions (<id>.loop.toml), runs, gates, budgets.")
    .option("--json", "print one JSON object on stdout: the verb's result, or the run as it ended")
    .option("--db <path>", "the loop store (default: $HANKWEAVE_LOOPS_DB or ~/.hankweave/loops.db)")
    .option(
      "--store <path|url>",
      "the loop store: a SQLite file or postgres://user:password@host/db (default: $HANKWEAVE_LOOPS_STORE, else --db)",
    )
    .option(
      "--home <dir>",
      "runs' directories (default: beside a SQLite store; ~/.hankweave/loops for PostgreSQL; shared by every daemon of one store)",
    );
  const db = (): LoopsFlags => {
    const o = program.opts() as StoreOptions;
    return { store: o.store ?? o.db, home: o.home, json: o.json === true };
  };
  const run = (name: string, description: string, detach: boolean) =>
    program
      .command(`${name} <definition>`)
      .description(description)
      .option("--idempotency-key <key>", "a second start with the same key returns the first run")
      .option("--admit-anyway <reason>", "start although an admission condition is missing (recorded)")
      .option("--set <limit=value>", "tighten a limit for this run (repeatable)", collect, [])
      .option("--exit-on-park", "return (exit 2) when the run parks instead of waiting for a decision")
      .action(
        (
          file: string,
          o: { idempotencyKey?: string; admitAnyway?: string; set: string[]; exitOnPark?: boolean },
        ) =>
          withContext(db(), async (c) =>
            (await verbs()).startVerb(c, file, {
              set: o.set,
              detach,
              exitOnPark: o.exitOnPark === true,
              ...(o.idempotencyKey !== undefined && { idempotencyKey: o.idempotencyKey }),
              ...(o.admitAnyway !== undefined && { admitAnyway: o.admitAnyway }),
            }),
          )(),
      );
  run(
    "run",
    "start a run and follow it in the foreground; exit 0 done/no-op, 3 blocked, 4 failed, 5 exhausted, 6 stalled",
    false,
  );
  run("start", "start a run and print its id (a daemon, or `loops attach`, drives it)", true);
  program
    .command("attach <run>")
    .description("drive (or follow) an existing run in the foreground")
    .action((id: string) => withContext(db(), async (c) => (await verbs()).follow(c, id, false))());
  program
    .command("lint <definition>")
    .description("validate a definition and show its admission table")
    .action((file: string) =>
      withContext(db(), async (c) => (await import("./lint-verb.ts")).lintVerb(c, file))(),
    );
  program
    .command("schema")
    .description("print the JSON Schema of .loop.toml files")
    .action(() => withContext(db(), async (c) => (await verbs()).schemaVerb(c))());
  program
    .command("ls")
    .option("--loop <id>")
    .description("runs with their state, cause and time in state; each loop's 30-day success rate")
    .action((o: { loop?: string }) =>
      withContext(db(), async (c) => (await readVerbs()).lsVerb(c, o.loop))(),
    );
  program
    .command("show <run>")
    .option("--wait", "wait until the run ends; exit code per outcome")
    .description("the pinned contract, the five meters, the generations and the outcome")
    .action((id: string, o: { wait?: boolean }) =>
      withContext(db(), async (c) =>
        o.wait === true ? (await verbs()).waitVerb(c, id) : (await readVerbs()).showVerb(c, id),
      )(),
    );
  program
    .command("logs <run>")
    .description("the run's event log")
    .action((id: string) => withContext(db(), async (c) => (await readVerbs()).logsVerb(c, id))());
  program
    .command("note <run> <text...>")
    .option("--by <name>", "who writes it", io.env.USER ?? "operator")
    .description("write to the run's inbox: read before the next decision, handed to the next generation")
    .action((id: string, words: string[], o: { by: string }) =>
      withContext(db(), async (c) => (await verbs()).noteVerb(c, id, words.join(" "), o.by))(),
    );
  for (const type of ["pause", "resume", "stop", "reject"] as const) {
    program
      .command(`${type} <run>`)
      .option("--by <name>", "who decides", io.env.USER ?? "operator")
      .option("--no-drive", "only record the command, even when no driver is alive")
      .action((id: string, o: { by: string; drive: boolean }) =>
        withContext(db(), async (c) =>
          (await verbs()).commandVerb(c, id, type, { by: o.by, noDrive: !o.drive }),
        )(),
      );
  }
  program
    .command("approve <run>")
    .option(
      "--add <amount>",
      "for a budget escalation: tokens (or seconds) added to the exceeded budget",
      Number,
    )
    .option("--comment <text>")
    .option("--by <name>", "who decides", io.env.USER ?? "operator")
    .option("--no-drive", "only record the command, even when no driver is alive")
    .action((id: string, o: { add?: number; comment?: string; by: string; drive: boolean }) =>
      withContext(db(), async (c) =>
        (await verbs()).commandVerb(c, id, "approve", {
          by: o.by,
          noDrive: !o.drive,
          ...(o.add !== undefined && { add: o.add }),
          ...(o.comment !== undefined && { comment: o.comment }),
        }),
      )(),
    );
  program
    .command("daemon")
    .description("drive live runs, fire schedules, serve the loopback HTTP API and SSE stream")
    .option("--host <host>", "where the API listens", "127.0.0.1")
    .option("--port <port>", "0 picks a free port (written to daemon.json beside the store)", Number, 0)
    .option("--workers <n>", "runs this daemon drives at a time (0: no limit)", Number, 0)
    .action((o: { host: string; port: number; workers: number }) =>
      withContext(db(), async (c) =>
        (await import("./daemon-verb.ts")).daemonVerb(c, { host: o.host, port: o.port, workers: o.workers }),
      )(),
    );
  program
    .command("gc")
    .option("--older-than <days>", "ended at least this many days ago", Number, 30)
    .option("--all", "remove bad endings too (their workspace, journal and gate evidence)")
    .action((o: { olderThan: number; all?: boolean }) =>
      withContext(db(), async (c) => (await verbs()).gcVerb(c, o.olderThan, o.all === true))(),
    );
  return program;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
