import type { FakeReply, FakeRequestView, FakeScript } from "./fake-types.ts";

/** The text a list script answers with once its entries are used up. */
export const SCRIPT_EXHAUSTED = "fake provider: script exhausted";

/** The reply a script gives to one request (see `FakeScript`). */
export function pickReply(script: FakeScript, request: FakeRequestView): FakeReply {
  if (typeof script === "function") return script(request);
  return script[request.requestIndex] ?? { type: "text", text: SCRIPT_EXHAUSTED };
}
