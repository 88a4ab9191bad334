import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeReply,
  type FakeRequestView,
  startFakeAnthropic,
  startFakeOpenAI,
} from "../../src/testing/fake-providers/index.ts";
import { builtBin } from "../lib/built-bin.ts";
import { childEnv } from "../lib/child-env.ts";
import { type ProfileShare, profileShare } from "../lib/cpu-profile-share.ts";
import { atLeast, atMost, type FigureLine, figure } from "../lib/figure.ts";
import { runToExit } from "../lib/spawn-timing.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

/** Prints the measured process's peak RSS and CPU time as it exits. */
const USAGE_PRELOAD = join(import.meta.dirname, "..", "lib", "report-usage.mjs");

const BENCH = "agent-share";

/** The fake model's pace: one text chunk of about 8 tokens every 150 ms, about 50 tokens a second. */
const FRAME_INTERVAL_MS = 150;
const ANSWER_CHUNKS = 24;
/** The answer's text: about 190 tokens. */
const ANSWER = `${"The notes describe thirty-two build steps that read, compile and log. ".repeat(10)}\n`;
/**
 * What the tool reads: a 2 KB notes file of prose lines about 64 characters long, as source files and
 * notes are. (An earlier payload, `seq 1 520`, printed 4-character lines; JSON escapes each newline
 * into two bytes, which alone added 0.24x to `journal-per-text`, a cost no real tool output shows.)
 */
const NOTES_LINE = "- step %: the build reads its inputs, compiles them, and logs it.\n";
const NOTES = Array.from({ length: 32 }, (_, index) =>
  NOTES_LINE.replace("%", String(index + 1).padStart(2, "0")),
).join("");
/** Tool calls per codon before the answer: an agent reads a few files before it writes. */
const TOOL_CALLS = 4;

/**
 * 15. The runtime's share of realistic agent work: codons run by the real agent SDKs (pi in-process,
 * and Claude Code through the Claude Agent SDK) against the test kit's fake provider servers, streaming
 * at a model's pace (about 50 tokens a second); each codon makes four tool calls returning 2 KB each,
 * then streams an answer of about 190 tokens. The CPU of
 * the hankweave process (runtime, SDK client, and pi's agent loop, which runs in it) per codon against
 * the codon's wall time, taken as the difference between a run of `few` and one of `many` codons so the
 * process's start is not counted; the same split by a CPU profile of each run into hankweave's own
 * code, the agent packages' code and what no script owns (GC, the VM, I/O); the journal's bytes
 * against the text it carries; and what `--diet-journal` saves on such a run.
 */
export const agentShareSuite: Suite = {
  name: BENCH,
  title: "The runtime's share of realistic agent work (real SDKs, fake providers at a model's pace)",
  async run(context) {
    const bin = builtBin(context);
    const figures: FigureLine[] = [];
    const notes = join(context.scratch, BENCH, "notes.md");
    mkdirSync(join(context.scratch, BENCH), { recursive: true });
    writeFileSync(notes, NOTES);
    const model = paceModel(`cat ${notes}`);
    const anthropic = await startFakeAnthropic(model, { frameIntervalMs: FRAME_INTERVAL_MS });
    const openai = await startFakeOpenAI(model, { frameIntervalMs: FRAME_INTERVAL_MS });
    try {
      const harnesses: readonly HarnessSpec[] = [
        {
          name: "pi",
          model: "pi/fake/fake-model",
          env: { HANKWEAVE_PI_FAKE_BASE_URL: `${openai.baseUrl}/v1` },
        },
        {
          name: "claude",
          model: "haiku",
          env: { ANTHROPIC_BASE_URL: anthropic.baseUrl, ANTHROPIC_API_KEY: "bench-key" },
        },
      ];
      for (const harness of harnesses) figures.push(...(await measureHarness(context, bin, harness)));
    } finally {
      await Promise.all([anthropic.close(), openai.close()]);
    }
    return figures;
  },
};

interface HarnessSpec {
  readonly name: string;
  readonly model: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * In each codon: `TOOL_CALLS` calls of `toolCommand`, then the answer streamed chunk by chunk; side
 * requests get "Done.".
 */
function paceModel(toolCommand: string): (request: FakeRequestView) => FakeReply {
  return (request) => {
    if (request.tools.length === 0) return { type: "text", text: "Done." };
    if (request.step < TOOL_CALLS) {
      const command = `${toolCommand} # part ${request.step + 1}`;
      return { type: "tool", calls: [{ tool: "bash", input: { command } }] };
    }
    return { type: "text", text: ANSWER, textChunks: ANSWER_CHUNKS };
  };
}

interface RunFigures {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly journalBytes: number;
  readonly carriedChars: number;
  readonly dietedBytes: number;
}

async function measureHarness(
  context: SuiteContext,
  bin: string,
  harness: HarnessSpec,
): Promise<FigureLine[]> {
  const few = 1;
  const many = context.quick ? 3 : 5;
  context.log(`  ${harness.name}: runs of ${few} and ${many} codons at a model's pace`);
  const small = await runHank(context, bin, harness, few);
  const large = await runHank(context, bin, harness, many);
  context.log(`  ${harness.name}: the same runs under a CPU profile`);
  const smallProfile = await profileHank(context, bin, harness, few);
  const largeProfile = await profileHank(context, bin, harness, many);
  const extra = many - few;
  const profiledWall = (largeProfile.wallMs - smallProfile.wallMs) / extra;
  const profiledShare = (part: keyof ProfileShare): number =>
    (100 * (largeProfile.share[part] - smallProfile.share[part])) / extra / profiledWall;
  const cpuPerCodon = (large.cpuMs - small.cpuMs) / extra;
  const wallPerCodon = (large.wallMs - small.wallMs) / extra;
  const spec = (name: string, unit: string, note: string) => ({
    bench: BENCH,
    figure: `${harness.name}/${name}`,
    unit,
    note,
  });
  return [
    figure(spec("codon-wall", "ms/codon", "wall time a codon adds (four tool calls, one streamed answer)"), [
      wallPerCodon,
    ]),
    figure(spec("codon-cpu", "ms/codon", "CPU of the hankweave process a codon adds"), [cpuPerCodon]),
    figure(
      {
        ...spec("cpu-share", "%", "hankweave process CPU / wall, per added codon (runtime + SDK client)"),
        target: atMost(1),
      },
      [(100 * cpuPerCodon) / wallPerCodon],
    ),
    figure(
      {
        ...spec("runtime-share", "%", "hankweave's own code (CPU profile) / wall, per added codon"),
        target: atMost(1),
      },
      [profiledShare("runtimeMs")],
    ),
    figure(
      spec(
        "packages-share",
        "%",
        "the agent SDK's and its dependencies' code (CPU profile) / wall, per added codon",
      ),
      [profiledShare("packagesMs")],
    ),
    figure(
      spec(
        "unattributed-share",
        "%",
        "garbage collection, the VM, I/O callbacks (CPU profile) / wall, per added codon",
      ),
      [profiledShare("unattributedMs")],
    ),
    figure(
      {
        ...spec("journal-per-text", "x", "journal bytes / characters of text its events carry"),
        target: atMost(2),
      },
      [large.journalBytes / large.carriedChars],
    ),
    figure(
      {
        ...spec("diet-saving", "%", "bytes --diet-journal takes out of the journal"),
        target: atLeast(50),
        better: "higher",
      },
      [(100 * (large.journalBytes - large.dietedBytes)) / large.journalBytes],
    ),
  ];
}

/** One measured run of `codons` codons: its wall time, its CPU, its journal and what the diet takes out. */
async function runHank(
  context: SuiteContext,
  bin: string,
  harness: HarnessSpec,
  codons: number,
): Promise<RunFigures> {
  const { ran, dir, execution, env } = await spawnHank(context, bin, harness, codons, "", [
    "--import",
    USAGE_PRELOAD,
  ]);
  const journal = join(execution, ".hankweave", "events", "events.jsonl");
  const journalBytes = statSync(journal).size;
  const carriedChars = carriedText(readFileSync(journal, "utf8"));
  await runToExit({ command: process.execPath, args: [bin, "--diet-journal", execution], cwd: dir, env });
  return {
    wallMs: ran.ms,
    cpuMs: cpuMsOf(ran.stderr),
    journalBytes,
    carriedChars,
    dietedBytes: statSync(journal).size,
  };
}

/**
 * The same run under `node --cpu-prof`, apart from the measured one: sampling every millisecond
 * costs the process CPU of its own (a few percent of a core), which would inflate `cpu-share`.
 */
async function profileHank(
  context: SuiteContext,
  bin: string,
  harness: HarnessSpec,
  codons: number,
): Promise<{ readonly wallMs: number; readonly share: ProfileShare }> {
  const profileDir = join(context.scratch, BENCH, `${harness.name}-${codons}-profiled`, "profile");
  const { ran } = await spawnHank(context, bin, harness, codons, "-profiled", [
    "--cpu-prof",
    "--cpu-prof-dir",
    profileDir,
  ]);
  return { wallMs: ran.ms, share: profileShare(profileDir) };
}

/** One headless run of `codons` codons through the harness, spawn to exit, with `nodeArgs` before the bin. */
async function spawnHank(
  context: SuiteContext,
  bin: string,
  harness: HarnessSpec,
  codons: number,
  label: string,
  nodeArgs: readonly string[],
) {
  const dir = join(context.scratch, BENCH, `${harness.name}-${codons}${label}`);
  const hankDir = join(dir, "hank");
  const execution = join(dir, "execution");
  writeShareHank(hankDir, codons);
  const env = { ...childEnv(context.env), ...harness.env, NO_COLOR: "1" };
  const args = [...nodeArgs, bin, hankDir, "--headless", "-m", harness.model, "-e", execution];
  const ran = await runToExit({ command: process.execPath, args, cwd: dir, env });
  return { ran, dir, execution, env };
}

function writeShareHank(hankDir: string, codons: number): void {
  mkdirSync(hankDir, { recursive: true });
  const hank = Array.from({ length: codons }, (_, index) => ({
    id: `read-${index}`,
    name: `Read the notes (${index + 1})`,
    model: "scripted",
    continuationMode: "fresh",
    promptText: "Read each part of the notes with the notes command, then summarise them in a paragraph.",
  }));
  writeFileSync(join(hankDir, "hank.json"), `${JSON.stringify({ hank }, null, 2)}\n`);
}

/**
 * The characters of text a journal's events carry: what the model wrote (messages, thinking), the
 * tools' inputs and results, as the journal holds them.
 */
function carriedText(journal: string): number {
  let chars = 0;
  for (const line of journal.split("\n")) {
    if (line === "") continue;
    const event = JSON.parse(line) as { type: string; data: Record<string, unknown> };
    if (event.type === "assistant.action") {
      chars += String(event.data.content ?? "").length;
      if (event.data.toolInput !== undefined) chars += JSON.stringify(event.data.toolInput).length;
    } else if (event.type === "tool.result") chars += String(event.data.result ?? "").length;
  }
  return chars;
}

/** What the usage preload printed as the process exited: its CPU time, in milliseconds. */
function cpuMsOf(stderr: string): number {
  const cpu = /bench-cpu-us=(\d+)/.exec(stderr);
  return cpu === null ? Number.NaN : Number(cpu[1]) / 1000;
}
