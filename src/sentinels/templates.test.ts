import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileTemplate, MAX_TEMPLATE_EVENTS, type TemplateContext } from "./templates.ts";
import { eventOf } from "./test-support.ts";

function context(events = [eventOf("file.updated", { path: "a<b>.ts" })]): TemplateContext {
  return {
    events,
    codon: { id: "build#1", name: "Build", startTime: new Date(0) },
    world: { currentTime: new Date(1500) },
    sentinel: { id: "watch", name: "Watch", triggerNumber: 3 },
  };
}

function render(text: string, ctx = context()): string {
  const compiled = compileTemplate(text);
  assert.ok(compiled.ok);
  const rendered = compiled.template.render(ctx);
  assert.ok(rendered.ok, rendered.ok ? "" : rendered.message);
  return rendered.text;
}

describe("sentinel prompt templates", () => {
  it("render `it` without HTML escaping and keep the author's whitespace", () => {
    const text =
      "#<%= it.sentinel.triggerNumber %> in <%= it.codon.id %> at <%= it.world.currentTime.getTime() %>:\n<% for (const e of it.events) { %>\n- <%= e.data.path %>\n<% } %>\n";
    assert.equal(render(text), "#3 in build#1 at 1500:\n\n- a<b>.ts\n\n");
  });

  it("show a template at most the first 1000 events of a trigger", () => {
    const many = Array.from({ length: MAX_TEMPLATE_EVENTS + 5 }, () => eventOf("info"));
    assert.equal(render("<%= it.events.length %>", context(many)), String(MAX_TEMPLATE_EVENTS));
  });

  it("report syntax errors at compile time and runtime errors at render time, as values", () => {
    const broken = compileTemplate("<%= it.x ");
    assert.equal(broken.ok, false);
    assert.match(broken.ok ? "" : broken.message, /^template does not compile: /);
    const throwing = compileTemplate("<%= it.nothing.here %>");
    assert.ok(throwing.ok);
    const rendered = throwing.template.render(context());
    assert.equal(rendered.ok, false);
    assert.match(rendered.ok ? "" : rendered.message, /^template failed to render: /);
  });
});
