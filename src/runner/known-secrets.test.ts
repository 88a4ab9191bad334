import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSecretMask } from "../journal/index.ts";
import { knownSecretValues } from "./known-secrets.ts";

describe("knownSecretValues", () => {
  it("takes secrets by name or shape, long enough and not paths, and credentials in the hank text", () => {
    const values = knownSecretValues({
      env: {
        PWD: "/home/someone/project",
        SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
        API_KEY: "short",
        GITHUB_TOKEN: "a-long-enough-token",
        SOME_URL: "https://user:s3cretpass@example.com/x",
        HOME: "/root",
      },
      hank: { hank: [] } as never,
      hankText: '{"promptText": "use sk-ant-abcdefghijklmnop please"}',
      hankDir: "/nonexistent",
    });
    assert.deepEqual(
      [...new Set(values)],
      ["a-long-enough-token", "https://user:s3cretpass@example.com/x", "sk-ant-abcdefghijklmnop"],
    );
  });
});

describe("createSecretMask", () => {
  it("masks every known value in every string, longest first, and keeps unchanged data as it is", () => {
    const mask = createSecretMask(["abcdefgh", "abcdefgh-longer"]);
    const data = { a: "x abcdefgh-longer y abcdefgh", list: ["abcdefgh"], n: 3, plain: { t: "none" } };
    assert.deepEqual(mask.data(data), { a: "x **** y ****", list: ["****"], n: 3, plain: { t: "none" } });
    const quoted = createSecretMask(['pa"ss\nword\\12']);
    assert.deepEqual(
      quoted.data({ m: 'x pa"ss\nword\\12 y' }),
      { m: "x **** y" },
      "JSON-escaped in the event",
    );
    const untouched = { t: "nothing here" };
    assert.equal(mask.data(untouched), untouched);
  });
});
