// gamesweep explore: the game-graph panel. A game file (pasted, opened or
// one of the examples) goes to POST /explore/api/gamegraph; the answer is
// `solve gamegraph --json`'s report plus a drawing of each small game,
// shown here as SVG, facts and a table per game. Self-contained: only
// `initGameGraph` is global, called by app.js once the presets have come.
"use strict";

const initGameGraph = (() => {
  const $ = id => document.getElementById(id);
  function esc(s) {
    return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }
  const st = { ggSeq: 0, ggExamples: [] };

  const OUTCOME = { I: "I (the player to move wins)", II: "II (the player to move loses)", draw: "draw" };
  const OUTCOME_CLASS = { I: "first", II: "second" };

  function ggSvg(d, g) {
    const c = d.coords, rows = g.table;
    let s = '<defs><marker id="gg-arrow-' + esc(g.name).replace(/[^A-Za-z0-9_-]/g, "_") + '" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#78909c"/></marker></defs>';
    const marker = "gg-arrow-" + esc(g.name).replace(/[^A-Za-z0-9_-]/g, "_");
    s += d.edges.map(([u, v]) => {
      let [x1, y1] = c[u], [x2, y2] = c[v];
      const dx = x2 - x1, dy = y2 - y1, len = Math.max(1, Math.hypot(dx, dy));
      x2 -= dx / len * 13; y2 -= dy / len * 13;
      return '<line class="edge" x1="' + x1 + '" y1="' + y1 + '" x2="' + x2 + '" y2="' + y2 + '" marker-end="url(#' + marker + ')"/>';
    }).join("");
    s += c.map(([x, y], i) => {
      const r = rows[i];
      const name = r.position.length > 7 ? r.position.slice(0, 6) + "…" : r.position;
      return '<g class="v ' + (OUTCOME_CLASS[r.outcome] || "draw") + (r.position === g.start ? " start" : "") + '" data-position="' + esc(r.position) + '"><title>' + esc(r.position) + ": " + esc(OUTCOME[r.outcome] || r.outcome) + '</title><circle cx="' + x + '" cy="' + y + '" r="12"/><text class="label" x="' + x + '" y="' + y + '">' + esc(name) + "</text></g>";
    }).join("");
    return '<svg viewBox="-20 -20 440 440" width="340" height="340" role="img" aria-label="game ' + esc(g.name) + '">' + s + "</svg>";
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
      const pic = d && d.drawing ? ggSvg(d.drawing, g) : '<p class="muted">' + esc(d && d.not_drawn || "not drawn") + "</p>";
      const facts = '<dl class="facts"><dt>positions</dt><dd>' + g.positions + "</dd><dt>moves</dt><dd>" + g.moves + "</dd>" +
        "<dt>acyclic</dt><dd>" + (g.acyclic ? "yes" : "no" + (g.cycle ? " (" + esc(g.cycle.join(" → ")) + " → …)" : "")) + "</dd>" +
        (g.start !== null ? '<dt>start</dt><dd class="gg-start">' + esc(g.start) + ": " + esc(OUTCOME[g.start_outcome] || g.start_outcome) + "</dd>" : "") +
        "<dt>I / II / draw</dt><dd>" + g.counts.first + " / " + g.counts.second + " / " + g.counts.draw + "</dd>" +
        "<dt>kernel</dt><dd>" + esc(ggKernel(g.kernel)) + "</dd>" +
        (g.grundy_unavailable ? "<dt>Grundy</dt><dd>" + esc(g.grundy_unavailable) + "</dd>" : "") +
        (g.minimax_unavailable ? "<dt>minimax</dt><dd>" + esc(g.minimax_unavailable) + "</dd>" : "") + "</dl>";
      const table = '<table class="gg-table"><thead><tr><th>position</th><th>outcome</th><th>Grundy</th><th>kernel</th>' +
        (g.minimax_computed ? "<th>minimax</th>" : "") + "<th>good moves</th></tr></thead><tbody>" +
        g.table.map(r => '<tr data-position="' + esc(r.position) + '"><td>' + esc(r.position) + '</td><td class="outcome">' + esc(r.outcome) +
          '</td><td class="grundy">' + (r.grundy === null ? "—" : r.grundy) + "</td><td>" + (r.in_kernel === null ? "—" : r.in_kernel ? "yes" : "no") +
          "</td>" + (g.minimax_computed ? "<td>" + (r.minimax === null ? "—" : r.minimax) + "</td>" : "") +
          "<td>" + esc(r.good_moves.join(", ")) + "</td></tr>").join("") + "</tbody></table>";
      return '<div class="gg-game" data-game="' + esc(g.name) + '"><div><h3>' + esc(g.name) + "</h3>" + pic + "</div><div>" + facts + table + "</div></div>";
    }).join("");
    const sum = v.report.sum ? "<p>sum " + esc(v.report.sum.left) + " + " + esc(v.report.sum.right) + ": see <code>gamesweep solve gamegraph</code> for the pair table</p>" : "";
    $("gg-out").innerHTML = out + sum;
  }

  async function solveGameGraph() {
    $("gg-error").hidden = true;
    $("gg-out").innerHTML = '<p class="muted">solving…</p>';
    st.ggSeq = (st.ggSeq || 0) + 1;
    const seq = st.ggSeq;
    try {
      const r = await fetch("/explore/api/gamegraph", { method: "POST", credentials: "same-origin", cache: "no-store", body: $("gg-text").value });
      const body = await r.json().catch(() => ({ error: "the server answered " + r.status }));
      if (seq !== st.ggSeq) return;
      if (!r.ok) throw new Error(body.error || ("HTTP " + r.status));
      renderGameGraph(body);
    } catch (e) {
      if (seq !== st.ggSeq) return;
      $("gg-out").innerHTML = "";
      $("gg-error").textContent = e.message;
      $("gg-error").hidden = false;
    }
    document.body.dataset.ggSeq = String(seq);
  }

  function initGameGraph(p) {
    st.ggExamples = p.game_examples || [];
    $("gg-example").innerHTML = '<option value="">—</option>' + st.ggExamples.map((x, i) =>
      '<option value="' + i + '">' + esc(x.name) + "</option>").join("");
    $("gg-example").addEventListener("change", () => {
      const x = st.ggExamples[Number($("gg-example").value)];
      if (!x) return;
      $("gg-text").value = x.text;
      solveGameGraph();
    });
    $("gg-solve").addEventListener("click", solveGameGraph);
    $("gg-file").addEventListener("change", () => {
      const f = $("gg-file").files[0];
      if (!f) return;
      if (f.size > (p.limits && p.limits.game_text_max || 1048576)) {
        $("gg-error").textContent = f.name + ": " + f.size + " bytes; the boards take game files of at most " + p.limits.game_text_max + " bytes";
        $("gg-error").hidden = false;
        return;
      }
      f.text().then(t => { $("gg-text").value = t; solveGameGraph(); });
    });
    if (p.game_file) {
      $("gg-text").value = p.game_file.text;
      solveGameGraph();
    }
  }

return initGameGraph;
})();
