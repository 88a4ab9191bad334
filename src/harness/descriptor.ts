import type { HarnessKind } from "../hank/models/index.ts";
import type { Clock } from "../util/clock.ts";
import type { CommandConfig } from "./command/command-config.ts";
import type { Harness, SessionModel } from "./harness.ts";

/**
 * The plug-in contract of a harness: everything the runtime needs to know about one kind of agent,
 * declared once in its folder (`<kind>/descriptor.ts`) and registered in `builtin-harnesses.ts`. Every
 * member is cheap: nothing here imports a provider SDK; a harness loads its SDK when its first session
 * starts.
 */

/** What a run gives the harnesses it builds. */
export interface HarnessContext {
  readonly clock: Clock;
  /** The execution's private state directory: session logs and agent config directories live under it. */
  readonly stateDir: string;
  /**
   * The state directory is removed when the run ends (a transient `loop()`): nothing a harness keeps
   * there can be resumed later, so it need not write what only a resume would read.
   */
  readonly ephemeral?: boolean;
  /** Scratch space for files that live only as long as a session (prompt files of command agents). */
  readonly tempDir: string;
  /** A fresh unique id (session ids, tool-use ids, prompt file names). */
  newId(): string;
  /** Command-line agents from hankweave.commands.json, when there is one. */
  readonly commands?: CommandConfig;
  /**
   * False once this process may no longer change the workspace (it lost the execution's lock while
   * suspended, and another process runs the execution now). An in-process agent asks before each of
   * its writes (a file, a command); an agent in a process of its own is stopped by the runtime instead.
   */
  readonly mayWrite?: () => boolean;
}

/** A line of a prompt that a harness would refuse, and why. */
export interface PromptProblem {
  readonly line: number;
  readonly message: string;
}

/** What the start-up self-test may read besides the model and the agent environment. */
export type SelfTestContext = Pick<HarnessContext, "commands">;

/** Why a kind has no harness for a model (an unconfigured command agent), with what to do about it. */
export interface HarnessMissing {
  readonly missing: string;
}

/** Builds the harness that runs `model`. Called once per instance key, when a codon first needs it. */
export type HarnessFactory = (model: SessionModel) => Harness | HarnessMissing;

/** The agent environment a session would get (after the HANKWEAVE_ pass-through). */
export type AgentEnv = Readonly<Record<string, string | undefined>>;

export interface HarnessDescriptor {
  /** The kind the model resolver names in `ResolvedModel.harness`. */
  readonly kind: HarnessKind;
  /** How messages name it: `Claude`, `pi`, `scripted`, `command`. */
  readonly displayName: string;
  /**
   * Model ids that run here whatever their provider: the id equals the prefix or starts with
   * `<prefix>/`, in any case (`scripted`, `command/<name>`, `pi/<provider>/<model>`).
   */
  readonly idPrefix?: string;
  /**
   * Catalog providers whose models run here when the id has no harness prefix; `"*"` takes every
   * provider no other descriptor names. Must agree with the resolver's `harnessForProvider`.
   */
  readonly providers: readonly string[] | "*";
  /** The idle timeout, in seconds, of a session when nothing in the hank or on the command line sets one. */
  readonly defaultIdleTimeoutSeconds: number;
  /** Models with the same key share one harness instance; absent: one instance for the whole kind. */
  instanceKey?(model: SessionModel): string;
  /** Whether the harness can load here, by module resolution only: undefined, or the install hint. */
  availability(): string | undefined;
  /**
   * The start-up check of one model, before anything is created and without contacting a provider:
   * undefined when it can run, else the problem and how to fix it.
   */
  selfTest(model: SessionModel, env: AgentEnv, context: SelfTestContext): string | undefined;
  /**
   * Problems a prompt would meet in this harness, found without running it (the scripted agent's
   * script errors), each with its 1-based line in the prompt. Absent: any prompt is fine.
   */
  checkPrompt?(prompt: string): readonly PromptProblem[];
  /**
   * The tool names sessions can be restricted to (`SessionRequest.tools`), or `"open"` when any name
   * is taken (Claude Code's tools are open-ended: MCP tools, new built-ins). Absent: the harness cannot
   * restrict its agent's tools, and refuses a session that asks it to.
   */
  readonly toolNames?: readonly string[] | "open";
  /** Builds the harness for `model` from the run's context. Must not load a provider SDK. */
  create(model: SessionModel, context: HarnessContext): Harness | HarnessMissing;
}
