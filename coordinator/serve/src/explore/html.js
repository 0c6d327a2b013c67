// HTML for the boards and the dashboard: the one escape function and the
// `html` template tag built on it. Every value put into a template is
// escaped, unless it is itself a template's result (an `Html`), an array of
// them, or nothing (null, undefined, false: left out). Elements get HTML only
// through `setHtml`, which takes an `Html` and nothing else, so no text a
// server or a person gave reaches `innerHTML` unescaped (the lint forbids
// `innerHTML` elsewhere).

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `s` as text in HTML, in an element or in a quoted attribute. */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ENTITIES[c]);
}

/** HTML made by `html`: inserted as it is. */
export class Html {
  constructor(text) {
    this.text = text;
    Object.freeze(this);
  }

  toString() {
    return this.text;
  }
}

function piece(v) {
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(piece).join("");
  if (v === null || v === undefined || v === false) return "";
  return esc(v);
}

/** Markup this server drew itself (a witness's SVG), inserted as it is. */
export function trusted(markup) {
  return new Html(String(markup));
}

/** The template tag: html`<li data-v="${v}">${name}</li>`. */
export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((v, i) => {
    out += piece(v) + strings[i + 1];
  });
  return new Html(out);
}

/** The children of `el` replaced by `h` (an `Html`; anything else throws). */
export function setHtml(el, h) {
  if (!(h instanceof Html)) throw new TypeError("setHtml takes html`...`, not " + typeof h);
  el.innerHTML = h.text;
}

/** The element of that id. */
export const $ = id => document.getElementById(id);

/** Text in element `id` and its `data-value` (removed when null). */
export function setFact(id, text, value) {
  const e = $(id);
  e.textContent = text;
  if (value === undefined || value === null) delete e.dataset.value;
  else e.dataset.value = value;
}
