import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeHank } from "../cases/hank-fixture.ts";
import { builtBin } from "../lib/built-bin.ts";
import { childEnv } from "../lib/child-env.ts";
import { atMost, type FigureLine, figure, type Target } from "../lib/figure.ts";
import { type SpawnSpec, timeToExit, timeToStderrLine } from "../lib/spawn-timing.ts";
import { summarize } from "../lib/stats.ts";
import type { Suite } from "../lib/suite.ts";

const BENCH = "cold-start";

/** The progress line of a codon starting (`> step-1: Codon step-1`), not of the run or execution. */
const FIRST_CODON = /^> step-1: /m;

/**
 * 5. Cold start of the built CLI (`dist/`): `--validate` of a 50-codon hank, spawn to exit, and a
 * headless run, spawn to the first codon's start line. Each is measured without and with
 * `NODE_EXTRA_CA_CERTS` (which this machine sets; it costs every Node start about 85 ms). The bin keeps
 * V8's code cache beside its script (`dist/cli/.v8-cache/`, written by the first start of each kind:
 * the warm-up here); `validate-50-codons/no-code-cache` is the start that finds none, the first one
 * after an install or a build.
 */
export const coldStart: Suite = {
  name: BENCH,
  title: "Cold start (built CLI)",
  async run(context) {
    const main = builtBin(context);
    const hankDir = writeHank(join(context.scratch, "cold-start", "hank"), {
      shape: { kind: "codons", count: 50 },
    });
    const repeats = context.quick ? 5 : 15;
    const caPath = context.env.NODE_EXTRA_CA_CERTS;
    const variants: { label: string; env: Record<string, string>; target: boolean }[] = [
      { label: "", env: childEnv(context.env), target: true },
      ...(caPath === undefined
        ? []
        : [{ label: "/with-ca-certs", env: childEnv(context.env, true), target: false }]),
    ];
    const figures: FigureLine[] = [];
    for (const variant of variants) {
      const node = (args: string[]): SpawnSpec => ({
        command: process.execPath,
        args,
        cwd: join(context.scratch, "cold-start"),
        env: variant.env,
      });
      context.log(
        `  node floor, --validate, first codon${variant.label === "" ? "" : " (NODE_EXTRA_CA_CERTS set)"}`,
      );
      const floor = await repeat(repeats, () => timeToExit(node(["-e", "0"])));
      const validate = await repeat(repeats, () => timeToExit(node([main, hankDir, "--validate"])));
      let run = 0;
      const firstCodon = await repeat(context.quick ? 3 : 10, () => {
        const exec = join(context.scratch, "cold-start", `exec-${variant.label.length}-${run++}`);
        return timeToStderrLine(node([main, hankDir, "--headless", "-e", exec]), FIRST_CODON);
      });
      const uncached = variant.target
        ? await repeat(repeats, () => {
            rmSync(join(dirname(main), ".v8-cache"), { recursive: true, force: true });
            return timeToExit(node([main, hankDir, "--validate"]));
          })
        : [];
      const spec = (name: string, target: Target | undefined, note: string) => ({
        bench: BENCH,
        figure: `${name}${variant.label}`,
        unit: "ms",
        note,
        ...(variant.target && target !== undefined && { target }),
      });
      figures.push(
        figure(spec("node-floor", undefined, "node -e 0, spawn to exit"), floor),
        figure(
          spec("validate-50-codons", atMost(300), "hankweave <hank> --validate, spawn to exit"),
          validate,
        ),
        figure(
          spec("first-codon-headless", atMost(500), "hankweave <hank> --headless, spawn to '> step-1:'"),
          firstCodon,
        ),
        ...(uncached.length === 0
          ? []
          : [
              figure(
                spec(
                  "validate-50-codons/no-code-cache",
                  undefined,
                  "--validate with no code cache (it writes one)",
                ),
                uncached,
              ),
            ]),
        // Issue 32's targets: the same starts as multiples of the bare node start of this run.
        figure(
          {
            ...spec("validate-50-codons/x-node", atMost(2), "--validate median / node floor median"),
            unit: "x",
          },
          [summarize(validate).median / summarize(floor).median],
        ),
        figure(
          {
            ...spec("first-codon-headless/x-node", atMost(3), "first codon median / node floor median"),
            unit: "x",
          },
          [summarize(firstCodon).median / summarize(floor).median],
        ),
      );
    }
    return figures;
  },
};

async function repeat(times: number, measure: () => Promise<number>): Promise<number[]> {
  await measure();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await measure());
  return samples;
}
