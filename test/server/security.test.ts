import assert from "node:assert/strict";
import { describe, it } from "node:test";
import WebSocket from "ws";
import { connectClient } from "../../src/server/protocol-client.ts";
import { codon, hankOf, serveHank } from "./support.ts";

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on("open", () => {
      resolve(101);
      socket.close();
    });
    socket.on("error", (error) => {
      if (!String(error.message).includes("Unexpected server response")) reject(error);
    });
  });
}

describe("who may connect", () => {
  it("requires the token when one is set, and refuses foreign browser origins", async () => {
    const token = "a-token-of-sufficient-length";
    const served = await serveHank(hankOf([codon("hold", "@sleep 600000")]), { serverOptions: { token } });
    try {
      const { url } = served.server;
      assert.equal(url.startsWith("ws://localhost:"), true);
      await assert.rejects(connectClient({ url, mode: "readonly" }), /HTTP 401/);
      await assert.rejects(
        connectClient({ url: `${url}/?token=wrong-token-value`, mode: "readonly" }),
        /HTTP 401/,
      );
      const client = await connectClient({ url, mode: "readonly", token });
      assert.equal(client.mode, "readonly");
      client.close();
      assert.equal(await upgradeStatus(`${url}/?token=${token}`, { origin: "https://evil.example" }), 403);
      assert.equal(await upgradeStatus(`${url}/?token=${token}`, { origin: "http://localhost:3000" }), 101);
      assert.equal(served.host.status.codonRunning, "hold", "refused connections never touch the run");
    } finally {
      await served.remove();
    }
  });
});
