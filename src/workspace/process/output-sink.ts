import { createLineSplitter } from "./line-splitter.ts";

export type OutputStream = "stdout" | "stderr";

export interface OutputSink {
  push(stream: OutputStream, chunk: Buffer): void;
  /** Delivers the unterminated rest of both streams. */
  end(): void;
  bytes(): number;
  truncated(): boolean;
}

/**
 * Turns stdout and stderr chunks into lines for `onLine`, up to a shared budget of `maxBytes`
 * (each line counted with its newline). The first line that does not fit ends delivery for both
 * streams, so the delivered output is always a prefix of what the process wrote per stream.
 */
export function createOutputSink(
  maxBytes: number,
  onLine: ((stream: OutputStream, line: string) => void) | undefined,
): OutputSink {
  let received = 0;
  let delivered = 0;
  let cut = false;
  const deliverTo =
    (stream: OutputStream) =>
    (line: string): void => {
      if (cut) return;
      const size = Buffer.byteLength(line) + 1;
      if (delivered + size > maxBytes) {
        cut = true;
        return;
      }
      delivered += size;
      onLine?.(stream, line);
    };
  const splitters = {
    stdout: createLineSplitter(deliverTo("stdout")),
    stderr: createLineSplitter(deliverTo("stderr")),
  };
  return {
    push(stream, chunk) {
      received += chunk.length;
      splitters[stream].push(chunk);
    },
    end() {
      splitters.stdout.end();
      splitters.stderr.end();
    },
    bytes: () => received,
    truncated: () => cut,
  };
}
