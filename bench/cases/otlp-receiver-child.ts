/**
 * The OTLP receiver of the tracing bench, in a process of its own: prints its endpoint on the first
 * stdout line, then, once stdin closes, the number of spans it received, and exits.
 *
 * It stands for a backend on another machine, which costs the traced machine nothing but the export's
 * request and its answer. So while the run is measured it only reads each export and answers it (what
 * the exporter waits for); the test kit's receiver decodes them once stdin closes, after the
 * measurement (`decodeAt: "close"`), with the decoder the tracing tests use to check the span tree.
 * Decoding as they arrived put a backend's work (20–90 ms of CPU a run, on this machine's two cores)
 * inside the measured window, whenever an export fell in it. A body that does not decode fails the
 * bench.
 */
import { startOtlpReceiver } from "../../src/testing/index.ts";

const receiver = await startOtlpReceiver({ decodeAt: "close" });
process.stdout.write(`${receiver.endpoint}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void receiver.close().then(() => {
    process.stdout.write(`${receiver.spans.length}\n`);
    process.exit(0);
  });
});
