import assert from "node:assert/strict";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { describe, it } from "node:test";
import { setTimeout } from "node:timers/promises";
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

/** Whether a TCP connection to `host:port` is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("who may connect", () => {
  it("listens on loopback only by default: the machine's other addresses are refused", async (t) => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address !== undefined && !address.internal && address.family === "IPv4");
    if (external === undefined) return t.skip("this machine has no address besides loopback");
    const served = await serveHank(hankOf([codon("hold", "@sleep 600000")]));
    try {
      assert.equal(await accepts("127.0.0.1", served.server.port), true);
      assert.equal(await accepts(external.address, served.server.port), false);
    } finally {
      await served.remove();
    }
  });

  it("requires the token when one is set, and refuses foreign browser origins", async () => {
    const token = "a-token-of-sufficient-length";
    const served = await serveHank(hankOf([codon("hold", "@sleep 600000")]), { serverOptions: { token } });
    try {
      // The codon is under way before the refusals below are checked against it.
      for (let waited = 0; waited < 10_000 && served.host.status.running?.id !== "hold"; waited += 10) {
        await setTimeout(10);
      }
      assert.equal(served.host.status.running?.id, "hold", "the codon started");
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
      assert.equal(served.host.status.running?.id, "hold", "refused connections never touch the run");
    } finally {
      await served.remove();
    }
  });
});
