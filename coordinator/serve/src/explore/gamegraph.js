// gamesweep explore: the game-graph panel. A game file (pasted, opened or
// one of the examples) goes to POST /explore/api/gamegraph; the answer is
// `solve gamegraph --json`'s report plus a drawing of each small game,
// shown here as SVG, facts and a table per game. A table row's button
// adds that position to the analysis panel's sum (`addTerm`, given) as
// `gamegraph:NAME#GAME#POS`, sending the solved text under NAME.
// `initGameGraph(p, addTerm)` sets the panel up once the presets (`p`) have
// come.
import { $, html, setHtml } from "./html.js";

export function initGameGraph(p, addTerm) {
  const st = {
    ggSeq: 0, ggExamples: [],
    name: "pasted.game", // the name of the text in the box (an example's, a file's)
    solved: null,        // the text solved and its name in the sum: {name, text}
    names: new Map(),    // the names given to texts in the sum: NAME → TEXT
  };

  // The name of `text` in a sum's terms: `base` made safe for a term (no
  // `#`, `:` or spaces), with -2, -3… if another text already has it.
  function sumName(base, text) {
    const safe = base.split(/[\\/]/).pop().replace(/[^A-Za-z0-9._-]/g, "_") || "game";
    for (let i = 1; ; i++) {
      const n = i === 1 ? safe : safe.replace(/(\.[^.]*)?$/, "-" + i + "$1");
      const had = st.names.get(n);
      if (had === undefined) { st.names.set(n, text); return n; }
      if (had === text) return n;
    }
  }

  const OUTCOME = { I: "I (the player to move wins)", II: "II (the player to move loses)", draw: "draw" };
  const OUTCOME_CLASS = { I: "first", II: "second" };

  // Where a line from (x, y) in direction (dx, dy) leaves a box of half
  // width hw and half height hh centred there: the distance along the line.
  function boxExit(dx, dy, hw, hh) {
    const len = Math.max(1e-9, Math.hypot(dx, dy));
    const t = Math.min(dx ? hw / Math.abs(dx) : Infinity, dy ? hh / Math.abs(dy) : Infinity);
    return t * len;
  }

  // The game's picture: a box per position (its label, the full name and
  // outcome in a <title>), coloured by outcome; arcs from box edge to box
  // edge. The boxes' data-level (level layout) and the arcs' data-from /
  // data-to let a reader check that every move goes down a level.
  const BOX_H = 22;
  function ggSvg(d, g, gi) {
    const c = d.coords, rows = g.table, marker = "gg-arrow-" + gi;
    const w = i => d.widths ? d.widths[i] : 26;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    c.forEach(([x, y], i) => {
      x0 = Math.min(x0, x - w(i) / 2); x1 = Math.max(x1, x + w(i) / 2);
      y0 = Math.min(y0, y - BOX_H / 2); y1 = Math.max(y1, y + BOX_H / 2);
    });
    if (!c.length) { x0 = y0 = 0; x1 = y1 = 1; }
    x0 -= 8; y0 -= 8; x1 += 8; y1 += 8;
    const arcs = d.edges.map(([u, v]) => {
      let [ax, ay] = c[u];
      const [bx, by] = c[v];
      const dx = bx - ax, dy = by - ay, len = Math.max(1, Math.hypot(dx, dy));
      const a = boxExit(dx, dy, w(u) / 2, BOX_H / 2), b = boxExit(dx, dy, w(v) / 2, BOX_H / 2) + 1;
      const x2 = bx - dx / len * b, y2 = by - dy / len * b;
      ax += dx / len * a; ay += dy / len * a;
      return html`<line class="edge" data-from="${u}" data-to="${v}" x1="${ax.toFixed(1)}" y1="${ay.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" marker-end="url(#${marker})"/>`;
    });
    const boxes = c.map(([x, y], i) => {
      const r = rows[i], label = d.labels ? d.labels[i] : r.position;
      return html`<g class="v ${OUTCOME_CLASS[r.outcome] || "draw"}${r.position === g.start ? " start" : ""}" data-i="${i}" data-position="${r.position}"${
        d.levels && html` data-level="${d.levels[i]}"`} data-y="${y}"><title>${r.position}: ${OUTCOME[r.outcome] || r.outcome}</title><rect x="${x - w(i) / 2}" y="${y - BOX_H / 2}" width="${w(i)}" height="${BOX_H}" rx="${BOX_H / 2}"/><text class="label" x="${x}" y="${y}">${label}</text></g>`;
    });
    const vw = x1 - x0, vh = y1 - y0, shown = Math.min(vw, 520);
    return html`<svg viewBox="${x0} ${y0} ${vw} ${vh}" width="${shown}" height="${Math.round(vh * shown / vw)}" role="img" aria-label="game ${g.name}, ${d.layout}; the table lists every position" aria-describedby="gg-table-${gi}"><defs><marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#78909c"/></marker></defs>${arcs}${boxes}</svg>`;
  }

  // Each position's label fits inside its box. The server sizes a box by
  // its label's character count; letters wider than that average (W, M,
  // capitals) overflowed it. A label too wide for its box is set in a
  // smaller font, down to LABEL_MIN_PX, and past that cut in the middle
  // with "…" (the full name is in the box's <title> and in the table).
  const LABEL_PX = 10, LABEL_MIN_PX = 7, LABEL_PAD = 4;
  let measure = null;
  // The label's width in the picture's units: as laid out, or (the panel
  // not shown yet, nothing laid out) measured on a canvas in its font.
  function labelWidth(t) {
    const w = t.getComputedTextLength();
    if (w > 0 || !t.textContent) return w;
    const cs = getComputedStyle(t);
    measure = measure || document.createElement("canvas").getContext("2d");
    measure.font = cs.fontSize + " " + cs.fontFamily;
    return measure.measureText(t.textContent).width;
  }
  function fitLabels(root) {
    root.querySelectorAll(".gg-game svg g.v").forEach(g => {
      const rect = g.querySelector("rect"), t = g.querySelector("text.label");
      if (!rect || !t) return;
      const room = Number(rect.getAttribute("width")) - 2 * LABEL_PAD;
      let w = labelWidth(t);
      if (w <= room) return;
      t.style.fontSize = Math.max(LABEL_MIN_PX, Math.floor(LABEL_PX * room / w * 0.97 * 10) / 10) + "px";
      w = labelWidth(t);
      const full = Array.from(t.textContent);
      for (let keep = full.length - 1; w > room && keep >= 1; keep--) {
        const head = Math.ceil(keep / 2), tail = keep - head;
        t.textContent = full.slice(0, head).join("") + "…" + full.slice(full.length - tail).join("");
        w = labelWidth(t);
      }
    });
  }

  // What the colours and shapes of the pictures and the pair table mean;
  // the swatches are drawn with the pictures' own classes.
  function ggLegend(layered) {
    const sw = cls => html`<svg class="gg-swatch" viewBox="0 0 30 22" width="30" height="22" aria-hidden="true"><g class="v ${cls}"><rect x="2" y="2" width="26" height="18" rx="9"/></g></svg>`;
    const item = (cls, text) => html`<li data-class="${cls}">${sw(cls)} ${text}</li>`;
    return html`<div id="gg-legend" class="gg-legend"><h3>Legend</h3><ul>${[
      item("first", "type I: the player to move wins (an N-position)"),
      item("second", "type II: the player to move loses (a P-position)"),
      item("draw", "draw: neither player can force a win"),
      item("first start", "thick blue border: the start position"),
    ]}<li>arrow: a move; hover over a position for its full name and outcome (the table lists them all)</li>${
      layered && html`<li>acyclic games are drawn by level: a position's level is the most moves that can still be made from it, so the end positions are at the bottom and every move goes down</li>`
    }<li>pair table: cells coloured by the pair's outcome, as above</li></ul></div>`;
  }

  // A declared sum: its facts and its pair table, cell for cell as
  // `gamesweep solve gamegraph FILE` prints it.
  function ggSum(sum, t) {
    const parts = [html`<h3>sum ${sum.left} + ${sum.right}</h3><dl class="facts"><dt>positions</dt><dd>${sum.positions}</dd><dt>moves</dt><dd>${sum.moves}</dd>${
      sum.start && html`<dt>start</dt><dd class="gg-start">(${sum.start[0]},${sum.start[1]}): ${OUTCOME[sum.start_outcome] || sum.start_outcome}</dd>`}</dl>`];
    if (sum.unavailable) parts.push(html`<p class="muted">not fully computed: ${sum.unavailable}</p>`);
    if (t) {
      const cls = (u, v) => OUTCOME_CLASS[sum.outcome_table[u][v]] || "draw";
      // The caption above the table, not in it: as a <caption> its length
      // would set the table's width.
      parts.push(html`<p class="muted gg-pairs-caption" id="gg-pairs-caption">${t.caption}</p><div class="gg-pairs-box"><table class="gg-pairs" aria-labelledby="gg-pairs-caption" data-cells="${t.cells_are}"><thead><tr><th></th>${
        t.columns.map(h => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${
        t.rows.map((h, u) => html`<tr><th scope="row">${h}</th>${t.cells[u].map((x, v) =>
          html`<td class="${cls(u, v)}${x.endsWith("!") ? " mismatch" : ""}">${x}</td>`)}</tr>`)}</tbody></table></div>`);
      if (t.rows.length < t.all_rows || t.columns.length < t.all_columns)
        parts.push(html`<p class="muted">the first ${t.rows.length} of ${t.all_rows} rows and ${t.columns.length} of ${t.all_columns} columns shown; <code>gamesweep solve gamegraph FILE --json</code> has the whole table</p>`);
    }
    if (sum.xor_mismatches) {
      const pairs = sum.left_positions.length * sum.right_positions.length;
      parts.push(html`<p>${sum.xor_mismatches.length ? "Sprague–Grundy check FAILED at " + sum.xor_mismatches.length + " of " + pairs + " pairs"
        : "Sprague–Grundy check: all " + pairs + " pairs have g(u,v) = g(u) xor g(v)"}</p>`);
    }
    if (sum.outcome_table.length)
      parts.push(html`<p class="gg-second">type II pairs (second player wins): ${sum.second_player_wins.length ? sum.second_player_wins.map(([u, v]) => "(" + u + "," + v + ")").join(" ") : "none"}</p>`);
    return html`<section class="gg-sum">${parts}</section>`;
  }

  function ggKernel(k) {
    if (!k) return "";
    const m = k.members ? " {" + k.members.join(", ") + "}" : "";
    switch (k.status) {
      case "unique": return "the unique kernel" + m;
      case "found": return "a kernel" + m + " (found by search in " + k.branches + " branching decisions; others may exist)";
      case "none": return "none exists (proved in " + k.branches + " branching decisions)";
      case "gave_up": return "unknown: the search gave up after " + k.branches + " branching decisions (solve gamegraph --budget allows more)";
      default: return k.status;
    }
  }

  function renderGameGraph(v) {
    const out = v.report.games.map((g, gi) => {
      const d = v.drawings[gi];
      const pic = d && d.drawing ? ggSvg(d.drawing, g, gi) : html`<p class="muted">${d && d.not_drawn || "not drawn"}</p>`;
      const facts = html`<dl class="facts"><dt>positions</dt><dd>${g.positions}</dd><dt>moves</dt><dd>${g.moves}</dd><dt>acyclic</dt><dd>${
        g.acyclic ? "yes" : "no" + (g.cycle ? " (" + g.cycle.join(" → ") + " → …)" : "")}</dd>${
        g.start !== null && html`<dt>start</dt><dd class="gg-start">${g.start}: ${OUTCOME[g.start_outcome] || g.start_outcome}</dd>`
      }<dt>I / II / draw</dt><dd>${g.counts.first} / ${g.counts.second} / ${g.counts.draw}</dd><dt>kernel</dt><dd>${ggKernel(g.kernel)}</dd>${
        g.grundy_unavailable && html`<dt>Grundy</dt><dd>${g.grundy_unavailable}</dd>`}${
        g.minimax_unavailable && html`<dt>minimax</dt><dd>${g.minimax_unavailable}</dd>`}</dl>`;
      const levels = d && d.drawing && d.drawing.levels;
      const rows = g.table.map((r, i) => html`<tr data-position="${r.position}"><td>${r.position}</td>${
        levels && html`<td class="level">${levels[i]}</td>`}<td class="outcome">${r.outcome}</td><td class="grundy">${r.grundy === null ? "—" : r.grundy}</td><td>${
        r.in_kernel === null ? "—" : r.in_kernel ? "yes" : "no"}</td>${
        g.minimax_computed && html`<td>${r.minimax === null ? "—" : r.minimax}</td>`}<td>${r.good_moves.join(", ")}</td>${
        // "add" only where the sum takes the position (normal play, no
        // cycle reachable): elsewhere it was offered and then refused.
        v.summable && v.summable[gi] && v.summable[gi][i] === false
          ? html`<td class="muted" title="not summed: a cycle or a non-win sink is reachable from here">—</td>`
          : html`<td><button type="button" class="gg-add" data-game="${g.name}" data-position="${r.position}" aria-label="add position ${r.position} of game ${g.name} to the sum">add</button></td>`}</tr>`);
      const table = html`<table class="gg-table" id="gg-table-${gi}"><thead><tr><th>position</th>${levels && html`<th>level</th>`}<th>outcome</th><th>Grundy</th><th>kernel</th>${
        g.minimax_computed && html`<th>minimax</th>`}<th>good moves</th><th><abbr title="add the position to the sum in the Analysis panel">sum</abbr></th></tr></thead><tbody>${rows}</tbody></table>`;
      return html`<div class="gg-game" data-game="${g.name}"><div><h3>${g.name}</h3>${pic}</div><div>${facts}${table}</div></div>`;
    });
    const sum = v.report.sum && ggSum(v.report.sum, v.pair_table);
    const layered = v.drawings.some(d => d.drawing && d.drawing.levels);
    setHtml($("gg-out"), html`${ggLegend(layered)}<p id="gg-sum-note" class="muted" role="status"></p>${out}${sum}`);
    fitLabels($("gg-out"));
  }

  // Add a table row's position to the analysis panel's sum; say what came
  // of it next to the tables (the sum itself is in the Analysis panel).
  async function addToSum(b) {
    if (!st.solved) return;
    const { name, text } = st.solved, game = b.dataset.game, pos = b.dataset.position;
    const note = $("gg-sum-note");
    note.textContent = "adding " + pos + "…";
    const e = await addTerm({
      term: "gamegraph:" + name + "#" + game + "#" + pos,
      label: name + ", game " + game + ", position " + pos,
      files: { [name]: text },
    });
    note.textContent = e ? "The sum refuses " + pos + " (game " + game + "): " + e : "Added " + pos + " (game " + game + ") to the sum in the Analysis panel.";
  }

  async function solveGameGraph() {
    $("gg-error").hidden = true;
    setHtml($("gg-out"), html`<p class="muted">solving…</p>`);
    st.ggSeq = (st.ggSeq || 0) + 1;
    const seq = st.ggSeq;
    const text = $("gg-text").value, name = st.name;
    st.solved = null;
    try {
      const r = await fetch("/explore/api/gamegraph", { method: "POST", credentials: "same-origin", cache: "no-store", body: text });
      const body = await r.json().catch(() => ({ error: "the server answered " + r.status }));
      if (seq !== st.ggSeq) return;
      if (!r.ok) throw new Error(body.error || ("HTTP " + r.status));
      st.solved = { name: sumName(name, text), text: text };
      renderGameGraph(body);
    } catch (e) {
      if (seq !== st.ggSeq) return;
      $("gg-out").replaceChildren();
      $("gg-error").textContent = e.message;
      $("gg-error").hidden = false;
    }
    document.body.dataset.ggSeq = String(seq);
  }

  st.ggExamples = p.game_examples || [];
  setHtml($("gg-example"), html`<option value="">—</option>${st.ggExamples.map((x, i) => html`<option value="${i}">${x.name}</option>`)}`);
  $("gg-example").addEventListener("change", () => {
    const x = st.ggExamples[Number($("gg-example").value)];
    if (!x) return;
    $("gg-text").value = x.text;
    st.name = x.name;
    solveGameGraph();
  });
  $("gg-solve").addEventListener("click", solveGameGraph);
  $("gg-text").addEventListener("input", () => { st.name = "pasted.game"; });
  $("gg-out").addEventListener("click", e => {
    const b = e.target.closest("button.gg-add");
    if (b) addToSum(b);
  });
  $("gg-file").addEventListener("change", () => {
    const f = $("gg-file").files[0];
    if (!f) return;
    if (f.size > (p.limits && p.limits.game_text_max || 1048576)) {
      $("gg-error").textContent = f.name + ": " + f.size + " bytes; the boards take game files of at most " + p.limits.game_text_max + " bytes";
      $("gg-error").hidden = false;
      return;
    }
    f.text().then(t => { $("gg-text").value = t; st.name = f.name; solveGameGraph(); });
  });
  if (p.game_file) {
    $("gg-text").value = p.game_file.text;
    st.name = p.game_file.name;
    solveGameGraph();
  }
}
