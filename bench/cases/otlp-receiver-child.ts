/**
 * The OTLP receiver of the tracing bench, in a process of its own so that decoding the exports is not
 * counted against the traced run: prints its endpoint on the first stdout line, then, once stdin
 * closes, the number of spans it received, and exits.
 */
import { startOtlpReceiver } from "../../src/testing/index.ts";

const receiver = await startOtlpReceiver();
process.stdout.write(`${receiver.endpoint}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  process.stdout.write(`${receiver.spans.length}\n`);
  void receiver.close().then(() => process.exit(0));
});
