/** Shared by the fake providers' tests: plain-fetch helpers. */

export const FIXED_NOW = 1_700_000_000_000;

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** Reads a body until it ends or breaks: the text received, and whether the transfer failed. */
export async function readBody(response: Response): Promise<{ text: string; failed: boolean }> {
  const reader = response.body?.getReader();
  if (reader === undefined) return { text: "", failed: false };
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
    return { text, failed: false };
  } catch {
    return { text, failed: true };
  }
}

/** Reads until `count` complete SSE frames (blank-line terminated) have arrived, then stops reading. */
export async function readFrames(
  response: Response,
  count: number,
): Promise<{ frames: string[]; cancel(): Promise<void> }> {
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error("no body");
  const decoder = new TextDecoder();
  let text = "";
  while (text.split("\n\n").length - 1 < count) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return { frames: splitFrames(text), cancel: () => reader.cancel() };
}

/** Splits SSE text into frames, each with its terminating blank line. */
export function splitFrames(text: string): string[] {
  return text
    .split("\n\n")
    .filter((frame) => frame !== "")
    .map((frame) => `${frame}\n\n`);
}

/** The JSON payloads of `data:` lines (skipping `[DONE]`). */
export function dataPayloads(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)) as unknown);
}

export const CLAUDE_TOOLS = [
  { name: "Write", input_schema: { type: "object", properties: { file_path: {}, content: {} } } },
  { name: "Bash", input_schema: { type: "object", properties: { command: {} } } },
];

export const PI_TOOLS = [
  {
    type: "function",
    function: { name: "write", parameters: { type: "object", properties: { path: {}, content: {} } } },
  },
  {
    type: "function",
    function: { name: "bash", parameters: { type: "object", properties: { command: {} } } },
  },
];
