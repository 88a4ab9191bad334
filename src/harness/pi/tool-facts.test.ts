import assert from "node:assert/strict";
import { homedir } from "node:os";
import { describe, it } from "node:test";
import { argsRecord, pathArgument, resolveToolPath, toolEffects, toolResultText } from "./tool-facts.ts";

describe("tool facts", () => {
  it("says what each tool may change", () => {
    assert.deepEqual(["read", "write", "edit", "bash", "grep"].map(toolEffects), [
      "none",
      "reported-files",
      "reported-files",
      "unknown",
      "unknown",
    ]);
  });

  it("reads the path argument and tolerates malformed arguments", () => {
    assert.equal(pathArgument({ path: "a.txt", content: "" }), "a.txt");
    assert.equal(pathArgument({ path: "" }), undefined);
    assert.equal(pathArgument("not an object"), undefined);
    assert.deepEqual(argsRecord(["x"]), {});
  });

  it("resolves paths as pi does, relative inside the workspace only", () => {
    assert.deepEqual(resolveToolPath("/w", "src/a.ts"), { absolute: "/w/src/a.ts", relative: "src/a.ts" });
    assert.deepEqual(resolveToolPath("/w", "@src/a.ts"), { absolute: "/w/src/a.ts", relative: "src/a.ts" });
    assert.deepEqual(resolveToolPath("/w", "/w/b.txt"), { absolute: "/w/b.txt", relative: "b.txt" });
    assert.deepEqual(resolveToolPath("/w", "../x.txt"), { absolute: "/x.txt" });
    assert.deepEqual(resolveToolPath("/w", "~/x.txt"), { absolute: `${homedir()}/x.txt` });
    assert.deepEqual(resolveToolPath("/w", "."), { absolute: "/w" });
  });

  it("joins the text blocks of a tool result, images as a placeholder", () => {
    const result = {
      content: [
        { type: "text", text: "line 1" },
        { type: "image", data: "…", mimeType: "image/png" },
        { type: "text", text: "line 2" },
      ],
    };
    assert.equal(toolResultText(result), "line 1\n[image]\nline 2");
    assert.equal(toolResultText(undefined), "");
  });
});
