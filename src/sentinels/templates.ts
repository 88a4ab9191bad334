import { Eta, type TemplateFunction } from "eta";
import type { JournaledEvent } from "../events/index.ts";

/** Templates see at most this many events of a trigger (the first ones), as the reference runtime does. */
export const MAX_TEMPLATE_EVENTS = 1000;

/**
 * What a sentinel prompt template sees as `it`. `codon.startTime` is when the sentinel was loaded for the
 * codon; `world.currentTime` is when the trigger was queued, not when it runs (a queued trigger renders
 * the time it happened).
 */
export interface TemplateContext {
  readonly events: readonly JournaledEvent[];
  readonly codon: {
    readonly id: string;
    readonly name: string;
    readonly description?: string;
    readonly startTime: Date;
  };
  readonly world: { readonly currentTime: Date };
  readonly sentinel: { readonly id: string; readonly name: string; readonly triggerNumber: number };
}

/** A compiled prompt template. */
export interface PromptTemplate {
  render(context: TemplateContext): RenderResult;
}

export type RenderResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly message: string };

/**
 * One Eta engine for every sentinel: no HTML escaping (prompts are not HTML) and no trimming around tags
 * (the author's whitespace is kept). Compiled templates are kept by the sentinel, not in Eta's cache.
 */
const eta = new Eta({ autoEscape: false, autoTrim: false, cache: false });

/** Compiles a template once, at load; a syntax error is a value naming what Eta found. */
export function compileTemplate(
  text: string,
):
  | { readonly ok: true; readonly template: PromptTemplate }
  | { readonly ok: false; readonly message: string } {
  let compiled: TemplateFunction;
  try {
    compiled = eta.compile(text);
  } catch (caught) {
    return { ok: false, message: `template does not compile: ${messageOf(caught)}` };
  }
  return {
    ok: true,
    template: {
      render(context) {
        const limited =
          context.events.length > MAX_TEMPLATE_EVENTS
            ? { ...context, events: context.events.slice(0, MAX_TEMPLATE_EVENTS) }
            : context;
        try {
          return { ok: true, text: compiled.call(eta, limited) };
        } catch (caught) {
          return { ok: false, message: `template failed to render: ${messageOf(caught)}` };
        }
      },
    },
  };
}

function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}
