// html.js, the pages' one escape function and their template tag, under
// Node's test runner (`node --test tests/`, .ci/run's "js lint" stage).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Html, esc, html, setHtml, trusted } from "../src/explore/html.js";

test("esc escapes the five characters HTML gives a meaning", () => {
  assert.equal(esc(`<a href="x" title='y'>&amp;</a>`),
    "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
  assert.equal(esc("Blue (Left) → 3/4, *2"), "Blue (Left) → 3/4, *2");
  assert.equal(esc(0), "0");
  assert.equal(esc(null), "null");
});

test("html escapes every value put into it", () => {
  const name = `"><script>alert(1)</script>`;
  const h = html`<li data-term="${name}">${name}</li>`;
  assert.ok(h instanceof Html);
  assert.equal(String(h),
    `<li data-term="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</li>`);
});

test("html keeps html values, joins arrays and leaves out null, undefined and false", () => {
  const items = ["a<b", "c"].map(x => html`<li>${x}</li>`);
  assert.equal(String(html`<ul>${items}</ul>`), "<ul><li>a&lt;b</li><li>c</li></ul>");
  assert.equal(String(html`[${null}${undefined}${false}]`), "[]");
  // 0 and the empty string are values, true is a word: only the three above vanish.
  assert.equal(String(html`[${0}|${""}|${true}]`), "[0||true]");
  const shown = [false, true].map(on => on && html`<b>${on}</b>`);
  assert.equal(String(html`${shown}`), "<b>true</b>");
  // A nested array of values is escaped element by element.
  assert.equal(String(html`${[["<", html`<i>`], ">"]}`), "&lt;<i>&gt;");
});

test("trusted markup goes in as it is", () => {
  assert.equal(String(html`<a>${trusted("<svg/>")}</a>`), "<a><svg/></a>");
});

test("setHtml takes html values only", () => {
  const el = { innerHTML: "" };
  setHtml(el, html`<b>${"<i>"}</b>`);
  assert.equal(el.innerHTML, "<b>&lt;i&gt;</b>");
  assert.throws(() => setHtml(el, "<b>raw</b>"), TypeError);
  assert.throws(() => setHtml(el, { text: "<b>forged</b>" }), TypeError);
  assert.equal(el.innerHTML, "<b>&lt;i&gt;</b>");
});
