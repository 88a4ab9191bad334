import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { splitFrontmatter } from "./prompt-frontmatter.ts";

describe("splitFrontmatter", () => {
  test("parses known fields as strings and strips the block", () => {
    const text =
      "---\nname: Reviewer\ndescription: Reviews code\ntags: [review, code]\nversion: 1.0\nauthor: Team\n---\n\nReview it.\n";
    assert.deepEqual(splitFrontmatter(text), {
      kind: "parsed",
      body: "Review it.\n",
      metadata: {
        raw: {
          name: "Reviewer",
          description: "Reviews code",
          tags: ["review", "code"],
          version: "1.0",
          author: "Team",
        },
        name: "Reviewer",
        description: "Reviews code",
        tags: ["review", "code"],
        version: "1.0",
        author: "Team",
      },
      unknownFields: [],
      badFields: [],
    });
  });

  test("CRLF delimiters", () => {
    const split = splitFrontmatter("---\r\nname: x\r\n---\r\nbody");
    assert.equal(split.kind, "parsed");
    assert.equal(split.body, "body");
  });

  test("no frontmatter unless --- is the very first line", () => {
    assert.deepEqual(splitFrontmatter("\n---\nname: x\n---\nbody"), {
      kind: "none",
      body: "\n---\nname: x\n---\nbody",
    });
    assert.deepEqual(splitFrontmatter("text\n---\n"), { kind: "none", body: "text\n---\n" });
  });

  test("an opening line without a closing one is plain text", () => {
    assert.deepEqual(splitFrontmatter("---\nname: x\nbody"), { kind: "none", body: "---\nname: x\nbody" });
  });

  test("an empty block is valid with no fields", () => {
    assert.deepEqual(splitFrontmatter("---\n---\nbody"), {
      kind: "parsed",
      body: "body",
      metadata: { raw: {} },
      unknownFields: [],
      badFields: [],
    });
  });

  test("unknown and badly shaped fields are reported, not thrown", () => {
    const split = splitFrontmatter("---\nname: [a, b]\ntags: solo\nmodel: opus\n---\nbody");
    assert.equal(split.kind, "parsed");
    if (split.kind !== "parsed") return;
    assert.deepEqual(split.unknownFields, ["model"]);
    assert.deepEqual(split.badFields, ["name", "tags"]);
    assert.equal(split.metadata.name, undefined);
    assert.deepEqual(split.metadata.raw, { name: ["a", "b"], tags: "solo", model: "opus" });
  });

  test("invalid YAML is reported with its line in the file, not in the block", () => {
    assert.deepEqual(splitFrontmatter("---\nname: x\nname: y\n---\nbody"), {
      kind: "invalid",
      body: "body",
      reason: "the frontmatter is not valid YAML at line 3, column 1: Map keys must be unique",
    });
  });

  test("a frontmatter that is not a mapping is invalid", () => {
    assert.deepEqual(splitFrontmatter("---\n- a\n- b\n---\nbody"), {
      kind: "invalid",
      body: "body",
      reason: "the frontmatter must be a mapping of fields (name: ..., tags: [...])",
    });
  });
});
