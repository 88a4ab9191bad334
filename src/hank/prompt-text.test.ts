import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { applyTemplateVariables, countLines, stripHtmlComments } from "./prompt-text.ts";

describe("stripHtmlComments", () => {
  test("an inline comment is removed", () => {
    assert.equal(stripHtmlComments("a <!-- note --> b"), "a  b");
  });

  test("a comment on its own line takes its newline with it", () => {
    assert.equal(stripHtmlComments("one\n<!-- note -->\ntwo\n"), "one\ntwo\n");
    assert.equal(stripHtmlComments("one\r\n<!-- note -->\r\ntwo"), "one\r\ntwo");
  });

  test("only one trailing newline is removed", () => {
    assert.equal(stripHtmlComments("<!-- x -->\n\nbody"), "\nbody");
  });

  test("multi-line comments", () => {
    assert.equal(stripHtmlComments("start\n<!--\n  line 1\n  line 2\n-->\nend"), "start\nend");
  });

  test("several comments are each removed (not greedy)", () => {
    assert.equal(stripHtmlComments("a<!-- 1 -->b<!-- 2 -->c"), "abc");
  });

  test("nested-looking comments end at the first -->", () => {
    assert.equal(stripHtmlComments("a <!-- outer <!-- inner --> rest --> b"), "a  rest --> b");
  });

  test("an unterminated comment is left as it is", () => {
    assert.equal(stripHtmlComments("keep <!-- never closed\nmore"), "keep <!-- never closed\nmore");
  });

  test("text without comments is unchanged", () => {
    assert.equal(stripHtmlComments("plain -> text <!- not a comment"), "plain -> text <!- not a comment");
  });
});

describe("applyTemplateVariables", () => {
  const agentRoot = "/runs/x/agentRoot";
  test("AGENT_ROOT and its aliases resolve to agentRoot; DATA_DIR to the data link", () => {
    const text = "<%AGENT_ROOT%> <%PROJECT_DIR%> <%EXECUTION_DIR%> <%DATA_DIR%>/in.csv";
    const data = path.join(agentRoot, "read_only_data_source");
    assert.equal(
      applyTemplateVariables(text, { agentRoot }),
      `${agentRoot} ${agentRoot} ${agentRoot} ${data}/in.csv`,
    );
  });

  test("every occurrence is replaced", () => {
    assert.equal(
      applyTemplateVariables("<%AGENT_ROOT%>/a <%AGENT_ROOT%>/b", { agentRoot }),
      `${agentRoot}/a ${agentRoot}/b`,
    );
  });

  test("other <% %> text is left alone", () => {
    const text = "<%= it.name %> <%UNKNOWN%> <% AGENT_ROOT %> <%agent_root%>";
    assert.equal(applyTemplateVariables(text, { agentRoot }), text);
  });

  test("$ in the path is inserted literally", () => {
    assert.equal(applyTemplateVariables("<%AGENT_ROOT%>", { agentRoot: "/a/$&/$1" }), "/a/$&/$1");
  });
});

describe("countLines", () => {
  test("counts lines as an editor shows them", () => {
    assert.equal(countLines(""), 0);
    assert.equal(countLines("a"), 1);
    assert.equal(countLines("a\n"), 1);
    assert.equal(countLines("a\nb"), 2);
    assert.equal(countLines("a\n\nb\n"), 3);
    assert.equal(countLines("\n"), 1);
  });
});
