import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openWebPage, webPageLine, webPageUrl } from "./open-web-page.ts";

describe("the run's web page address", () => {
  it("is /ui/ on the WebSocket server's port", () => {
    assert.equal(webPageUrl({ url: "ws://localhost:4444" }), "http://localhost:4444/ui/");
    assert.equal(webPageUrl({ url: "ws://[::1]:80" }), "http://[::1]:80/ui/");
  });

  it("asks for the token without printing it, and --open does not open a page that needs one", () => {
    assert.equal(
      webPageLine({ url: "ws://10.0.0.5:4444" }, true),
      "  Web page: http://10.0.0.5:4444/ui/ (add ?token=<token>)\n",
    );
    const lines: string[] = [];
    const stderr = { write: (text: string) => lines.push(text) };
    openWebPage({ url: "ws://10.0.0.5:4444" }, { needsToken: true, print: true, stderr, env: {} });
    assert.deepEqual(lines, ["  Web page: http://10.0.0.5:4444/ui/ (add ?token=<token>)\n"]);
  });
});
