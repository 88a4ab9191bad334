import { classifyFailureText } from "../harness/classify-failure.ts";
import { formatScriptErrors, parseScript, type ScriptStep } from "../harness/scripted/index.ts";
import { type Clock, sleep } from "../util/clock.ts";
import { estimateTokens } from "./conversation.ts";
import type { SentinelModel, SentinelModelRequest, SentinelModelResult } from "./sentinel-model.ts";

/**
 * The scripted model for sentinels: offline, free and deterministic, for dry runs (`-m scripted`) and
 * tests. It reads the last user message (the rendered prompt) with the scripted agent's parser:
 * - `@say <text>` lines are the reply, joined with newlines; without any, the prose is echoed back;
 * - `@usage input=.. output=.. [cost=..]` adds usage (default: prompt and reply characters / 4, $0);
 * - `@fail <error>` fails the call, its error classified by the shared classifier, so the text decides
 *   whether it is retriable;
 * - `@sleep <ms>` waits on the injected clock, and stops at once when the call is aborted;
 * - `@think` is ignored; every directive that acts (files, commands, crashes) fails the call: a
 *   sentinel has no tools and no process.
 * A directive's `attempts=` counts this sentinel's calls within the codon (from 1), `iterations=` the
 * observed codon's loop iteration (from 0).
 */
export function createScriptedSentinelModel(id: string, clock: Clock, iteration?: number): SentinelModel {
  return { id, call: (request) => callScripted(request, clock, iteration) };
}

function applies(step: ScriptStep, callNumber: number, iteration: number | undefined): boolean {
  const when = step.when;
  if (when === undefined) return true;
  if (when.attempts !== undefined && !when.attempts.includes(callNumber)) return false;
  return when.iterations === undefined || (iteration !== undefined && when.iterations.includes(iteration));
}

async function callScripted(
  request: SentinelModelRequest,
  clock: Clock,
  iteration: number | undefined,
): Promise<SentinelModelResult> {
  const prompt = request.messages.at(-1)?.content ?? "";
  const script = parseScript(prompt);
  if (!script.ok) return { ok: false, message: formatScriptErrors(script.errors), retriable: false };
  const said: string[] = [];
  const prose: string[] = [];
  let usage: { input: number; output: number; cost: number } | undefined;
  for (const step of script.steps) {
    if (!applies(step, request.callNumber, iteration)) continue;
    const stop = await stepProblem(step, request, clock);
    if (stop !== undefined) return stop;
    if (step.kind === "say") said.push(step.text);
    if (step.kind === "prose") prose.push(step.text);
    if (step.kind === "usage") {
      usage = {
        input: (usage?.input ?? 0) + step.usage.input,
        output: (usage?.output ?? 0) + step.usage.output,
        cost: (usage?.cost ?? 0) + step.usage.cost,
      };
    }
  }
  const text = said.length > 0 ? said.join("\n") : prose.join("\n\n");
  const promptChars =
    (request.system?.length ?? 0) + request.messages.reduce((n, m) => n + m.content.length, 0);
  const counted = usage ?? { input: Math.ceil(promptChars / 4), output: estimateTokens(text), cost: 0 };
  return { ok: true, text, usage: { input: counted.input, output: counted.output }, costUsd: counted.cost };
}

/** Runs a step that can end the call; undefined lets the script go on. */
async function stepProblem(
  step: ScriptStep,
  request: SentinelModelRequest,
  clock: Clock,
): Promise<SentinelModelResult | undefined> {
  switch (step.kind) {
    case "prose":
    case "say":
    case "think":
    case "usage":
      return undefined;
    case "fail": {
      const reason = classifyFailureText(step.text, true);
      return { ok: false, message: reason.message, retriable: reason.retriable };
    }
    case "sleep":
      try {
        await sleep(clock, step.ms, request.signal);
        return undefined;
      } catch {
        return { ok: false, message: "Request was aborted", retriable: true };
      }
    case "exhaust-context":
      return { ok: false, message: "prompt is too long: the context window is exceeded", retriable: false };
    case "max-tokens":
      return { ok: false, message: "Output stopped at the max output tokens limit", retriable: false };
    default:
      return {
        ok: false,
        message: `@${step.kind} is not available to a sentinel model: it has no tools and no process`,
        retriable: false,
      };
  }
}
