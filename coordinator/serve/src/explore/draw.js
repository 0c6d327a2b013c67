// The board's SVG: a graph's vertices and edges (arcs when directed), and
// the error drawn in their place when there is no position to show.
import { html } from "./html.js";

// The error, drawn inside the board: words wrapped into lines that fit its
// 440-unit box (a word longer than a line is cut into pieces).
const ERROR_LINE = 34, ERROR_LINES = 12;
export function errorBoard(msg) {
  const lines = [];
  let cur = "";
  for (let w of String(msg).split(/\s+/).filter(Boolean)) {
    while (w.length > ERROR_LINE) {
      if (cur) { lines.push(cur); cur = ""; }
      lines.push(w.slice(0, ERROR_LINE));
      w = w.slice(ERROR_LINE);
    }
    if (cur && cur.length + 1 + w.length > ERROR_LINE) { lines.push(cur); cur = w; }
    else cur = cur ? cur + " " + w : w;
  }
  if (cur) lines.push(cur);
  if (lines.length > ERROR_LINES) { lines.length = ERROR_LINES; lines[ERROR_LINES - 1] += " …"; }
  const all = ["nothing to show:"].concat(lines);
  const y0 = 200 - (all.length - 1) * 10;
  return html`<text class="board-error" x="200" y="${y0}" text-anchor="middle" font-size="14" fill="#b71c1c">${
    all.map((l, i) => html`<tspan x="200" dy="${i ? 20 : 0}">${l}</tspan>`)}</text>`;
}

// The board `d` (its coords, edges, directed): `cls.vertex(v)` the class
// list of a vertex, `cls.edge(u, v)` more classes of an edge, `cls.extra`
// drawn under the edges and `cls.over` over them (both html); `labels(v)`
// a vertex's value label [text, data-value, nonzero] or null.
export function svgBoard(d, cls, labels) {
  const c = d.coords;
  const edges = d.edges.map(([u, v]) => {
    const [x1, y1] = c[u];
    let [x2, y2] = c[v];
    if (d.directed) {
      const dx = x2 - x1, dy = y2 - y1, len = Math.max(1, Math.hypot(dx, dy));
      x2 -= dx / len * 17; y2 -= dy / len * 17;
    }
    return html`<line class="edge${cls.edge ? cls.edge(u, v) : ""}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"${
      d.directed && html` marker-end="url(#arrow)"`}/>`;
  });
  const vertices = c.map(([x, y], v) => {
    const l = labels(v);
    return html`<g class="v ${cls.vertex(v)}" data-v="${v}"><circle cx="${x}" cy="${y}" r="15"/><text class="label" x="${x}" y="${y}">${v}</text>${
      l && html`<text class="val${l[2] ? " nonzero" : ""}" data-value="${l[1]}" x="${x}" y="${y - 21}">${l[0]}</text>`}</g>`;
  });
  return html`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#78909c"/></marker></defs>${
    cls.extra}${edges}${cls.over}${vertices}`;
}
