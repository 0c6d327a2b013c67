// gamesweep explore: the boards. Asks /explore/api/* for every position and
// draws the answer as SVG; all values come from the server's exact solvers.
"use strict";

const st = {
  game: "uvg",
  code: "",
  path: [],          // UVG: start first, token last
  colouring: "",     // Col: one of . L R per vertex
  colHistory: [],    // Col: colourings before each paint (undo)
  view: null,        // the last answer shown
  presets: [],
  results: [],
  seq: 0,
  sid: "",
};

function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
function nim(k) { return k === 0 ? "0" : k === 1 ? "*" : "*" + k; }
const $ = id => document.getElementById(id);

function visitId() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, x => x.toString(16).padStart(2, "0")).join("");
}

async function api(path) {
  const r = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (r.status === 401) { window.location.assign("/login"); throw new Error("log in first"); }
  if (!r.ok || body === null) throw new Error(body && body.error ? body.error : path + ": HTTP " + r.status);
  return body;
}

function showError(msg) {
  const e = $("error");
  e.textContent = msg;
  e.hidden = !msg;
}
// The end of a game: `kind` is "win" (the person won), "loss" (the
// solver won) or "over" (no moves left, nobody playing the solver); each
// has its own colour and word, not only green.
function showMessage(msg, kind) {
  const m = $("message");
  m.textContent = msg || "";
  m.hidden = !msg;
  m.className = "message" + (msg ? " " + (kind || "over") : "");
  if (msg) m.dataset.outcome = kind || "over"; else delete m.dataset.outcome;
}
function done(ok) {
  st.seq += 1;
  document.body.dataset.seq = String(st.seq);
  document.body.dataset.state = ok ? "ready" : "error";
}

function setGame(g) {
  st.game = g;
  $("game").value = g;
  document.body.className = "game-" + g;
}

function syncUrl() {
  const p = new URLSearchParams();
  if (st.game !== "uvg") p.set("game", st.game);
  p.set("g", st.code);
  if (st.game === "uvg" && st.path.length) p.set("path", st.path.join(","));
  if (st.game !== "uvg" && st.colouring) p.set("c", st.colouring);
  history.replaceState(null, "", "/explore?" + p.toString());
}

// ---- drawing ----

// Nothing of an earlier position stays on the panel once a request failed.
function clearPanel() {
  for (const id of ["value", "winner", "nu", "nu-s", "deg3", "reply", "path", "col-value", "col-outcome", "col-colouring", "col-table"]) {
    const e = $(id);
    e.textContent = "—";
    delete e.dataset.value;
  }
  $("moves").querySelector("tbody").innerHTML = "";
  $("col-moves").querySelector("tbody").innerHTML = "";
  $("hint").textContent = "";
  $("method").textContent = "";
}

// The error, drawn inside the board: words wrapped into lines that fit its
// 440-unit box (a word longer than a line is cut into pieces).
const ERROR_LINE = 34, ERROR_LINES = 12;
function errorBoard(msg) {
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
  return '<text class="board-error" x="200" y="' + y0 + '" text-anchor="middle" font-size="14" fill="#b71c1c">' +
    all.map((l, i) => '<tspan x="200" dy="' + (i ? 20 : 0) + '">' + esc(l) + "</tspan>").join("") + "</text>";
}

function svgBoard(d, cls, labels) {
  // cls(v) -> class list; labels(v) -> [text, data-value, nonzero] or null
  const c = d.coords;
  let s = '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#78909c"/></marker></defs>';
  return s + (cls.extra || "") + d.edges.map(([u, v]) => {
    let [x1, y1] = c[u], [x2, y2] = c[v];
    if (d.directed) {
      const dx = x2 - x1, dy = y2 - y1, len = Math.max(1, Math.hypot(dx, dy));
      x2 -= dx / len * 17; y2 -= dy / len * 17;
    }
    return '<line class="edge' + (cls.edge ? cls.edge(u, v) : "") + '" x1="' + x1 + '" y1="' + y1 + '" x2="' + x2 + '" y2="' + y2 + '"' +
      (d.directed ? ' marker-end="url(#arrow)"' : "") + "/>";
  }).join("") + (cls.over || "") + c.map(([x, y], v) => {
    const l = labels(v);
    return '<g class="v ' + cls.vertex(v) + '" data-v="' + v + '"><circle cx="' + x + '" cy="' + y + '" r="15"/>' +
      '<text class="label" x="' + x + '" y="' + y + '">' + v + "</text>" +
      (l ? '<text class="val' + (l[2] ? " nonzero" : "") + '" data-value="' + l[1] + '" x="' + x + '" y="' + (y - 21) + '">' + esc(l[0]) + "</text>" : "") +
      "</g>";
  }).join("");
}

function renderUvg(v) {
  const d = v.drawing;
  const alive = new Set(v.alive);
  const unmatched = new Set(v.unmatched);
  const moveVal = new Map(v.moves.map(m => [m.vertex, m.value]));
  const token = v.token;
  const trail = v.path.slice(1).map((w, i) => {
    const [x1, y1] = d.coords[v.path[i]], [x2, y2] = d.coords[w];
    return '<line class="trail" x1="' + x1 + '" y1="' + y1 + '" x2="' + x2 + '" y2="' + y2 + '"/>';
  }).join("");
  const gold = v.matching.map(([a, b]) => {
    const [x1, y1] = d.coords[a], [x2, y2] = d.coords[b];
    return '<line class="match" data-u="' + a + '" data-w="' + b + '" x1="' + x1 + '" y1="' + y1 + '" x2="' + x2 + '" y2="' + y2 + '"/>';
  }).join("");
  const cls = {
    extra: gold,
    over: trail,
    edge: (a, b) => alive.has(a) && alive.has(b) ? "" : " dead",
    vertex: w => {
      const c = [];
      if (!alive.has(w)) c.push("gone");
      if (unmatched.has(w)) c.push("unmatched");
      if (w === token) c.push("token");
      if (moveVal.has(w)) { c.push("move"); if (moveVal.get(w) === 0) c.push("win"); }
      if (token === null) c.push("start-choice");
      return c.join(" ");
    },
  };
  const labels = w => {
    if (token === null && v.start_values) return [nim(v.start_values[w]), v.start_values[w], v.start_values[w] !== 0];
    if (moveVal.has(w)) { const x = moveVal.get(w); return [nim(x), x, x !== 0]; }
    return null;
  };
  $("board").innerHTML = svgBoard(d, cls, labels);
  const set = (id, text, value) => { const e = $(id); e.textContent = text; if (value === undefined || value === null) delete e.dataset.value; else e.dataset.value = value; };
  set("value", v.value === null ? "— (put the token on a vertex)" : nim(v.value) + (v.value === 0 ? "  (the player to move loses)" : ""), v.value);
  set("winner", v.mover_wins === null ? "—" : v.mover_wins ? "wins (ν(G) > ν(G − s))" : "loses (ν(G) = ν(G − s))");
  set("nu", String(v.nu), v.nu);
  set("nu-s", v.nu_without_token === null ? "—" : String(v.nu_without_token), v.nu_without_token);
  set("deg3", v.degree3 ? nim(v.degree3[0]) + " after " + v.degree3[1] + " win/lose tests" :
    (token === null ? "—" : "not applicable (a vertex of degree > 3)"), v.degree3 ? v.degree3[0] : null);
  set("reply", v.reply ? v.reply.vertex + " (" + v.reply.why + (v.reply.remoteness !== null ? ", " + v.reply.remoteness + (v.reply.remoteness === 1 ? " move left" : " moves left") : "") + ")" : "—");
  set("path", v.path.length ? v.path.join(" → ") : "—");
  $("hint").textContent = token === null ? "Click a vertex to put the token there. The numbers are the Grundy value of each start." :
    v.moves.length ? "Click a highlighted neighbour to move (green: value 0, a winning move)." :
    "Game over: no move from " + token + ". Undo takes moves back; Reset starts again.";
  $("moves-head").textContent = token === null ? "start" : "move to";
  const rows = token === null ? v.start_values.map((x, w) => [w, x, "start"]) : v.moves.map(m => [m.vertex, m.value, "move"]);
  $("moves").querySelector("tbody").innerHTML = rows.map(([w, x, k]) =>
    '<tr class="' + k + (x === 0 && k === "move" ? " win" : "") + '" data-v="' + w + '" data-value="' + x + '"><td>' + w + "</td><td>" + nim(x) + "</td></tr>").join("");
  $("method").textContent = v.method + " · " + d.layout + " · max degree " + v.max_degree;
}

function renderCol(v) {
  const d = v.drawing;
  const lo = new Map(v.left_options.map(m => [m.vertex, m.value]));
  const ro = new Map(v.right_options.map(m => [m.vertex, m.value]));
  const cls = {
    vertex: w => {
      const ch = v.colouring[w];
      return "col" + (ch === "L" ? " blue" : ch === "R" ? " red" : "");
    },
  };
  $("board").innerHTML = svgBoard(d, cls, () => null);
  $("col-value").textContent = v.value;
  $("col-value").dataset.value = v.value;
  const names = { L: "L: Blue (Left) wins", R: "R: Red (Right) wins", N: "N: the first player wins", P: "P: the second player wins" };
  $("col-outcome").textContent = names[v.outcome] || v.outcome;
  $("col-outcome").dataset.value = v.outcome;
  $("col-colouring").textContent = v.colouring;
  $("col-table").textContent = v.table_games + " values" + (v.table_reset ? " (started afresh: it had reached the budget)" : "");
  const rows = [];
  for (let w = 0; w < d.n; w++) {
    if (!lo.has(w) && !ro.has(w)) continue;
    rows.push('<tr data-v="' + w + '"><td>' + w + '</td><td class="left" data-value="' + esc(lo.has(w) ? lo.get(w) : "") + '">' + esc(lo.has(w) ? lo.get(w) : "—") +
      '</td><td class="right" data-value="' + esc(ro.has(w) ? ro.get(w) : "") + '">' + esc(ro.has(w) ? ro.get(w) : "—") + "</td></tr>");
  }
  $("col-moves").querySelector("tbody").innerHTML = rows.join("") || '<tr><td colspan="3" class="muted">no moves: the player to move loses</td></tr>';
  $("method").textContent = (String(v.rules).toLowerCase() === "myopic" ? "Myopic Col" : "Col") + " · canonical value (CGSuite notation) · " + d.layout;
}

// ---- loading ----

// The end of a game: [text, kind] (kind as showMessage takes it), or null.
function endMessage(v) {
  if (st.game !== "uvg" || v.token === null || v.moves.length) return null;
  if (!$("play").checked) return ["No moves left from " + v.token + ": the player to move loses.", "over"];
  return st.path.length % 2 === 1 ? ["You cannot move: the solver wins.", "loss"] : ["The solver cannot move: you win!", "win"];
}

async function load() {
  document.body.dataset.state = "busy";
  syncUrl();
  try {
    let v;
    if (st.game === "uvg") {
      v = await api("/explore/api/uvg?g=" + encodeURIComponent(st.code) + "&path=" + st.path.join(","));
      renderUvg(v);
    } else {
      v = await api("/explore/api/col?rules=" + st.game + "&g=" + encodeURIComponent(st.code) +
        "&c=" + encodeURIComponent(st.colouring) + "&sid=" + st.sid);
      st.colouring = v.colouring;
      $("colouring").value = v.colouring;
      renderCol(v);
    }
    st.view = v;
    showError("");
    const end = endMessage(v);
    showMessage(end && end[0], end && end[1]);
    done(true);
    return true;
  } catch (e) {
    // Nothing of the position shown before stays: the board says why
    // there is none, the panel is empty.
    st.view = null;
    showError(e.message);
    showMessage("");
    clearPanel();
    $("board").innerHTML = errorBoard(e.message);
    done(false);
    return false;
  }
}

// A step that failed: back to the position before it (`back` restores the
// state), with the step's error still shown.
async function revert(back) {
  const err = $("error").textContent;
  back();
  await load();
  showError(err);
}

async function clickVertex(w) {
  const v = st.view;
  if (!v || document.body.dataset.state === "busy") return;
  if (st.game === "uvg") {
    if (v.token === null) {
      st.path = [w];
      await load();
      return;
    }
    if (!v.moves.some(m => m.vertex === w)) return;
    st.path.push(w);
    if (!(await load())) { await revert(() => st.path.pop()); return; }
    const r = st.view;
    if ($("play").checked && r.reply && r.moves.length) {
      st.path.push(r.reply.vertex);
      if (!(await load())) await revert(() => st.path.pop());
    }
  } else {
    const paint = document.querySelector('input[name="paint"]:checked').value;
    const cur = st.colouring.split("");
    if (cur[w] === paint) return;
    const before = st.colouring;
    cur[w] = paint;
    st.colHistory.push(before);
    st.colouring = cur.join("");
    if (!(await load())) {
      // An illegal colouring: the error stays shown, the board as it was.
      await revert(() => { st.colouring = st.colHistory.pop(); });
    }
  }
}

async function undo() {
  if (st.game === "uvg") {
    if (!st.path.length) return;
    if ($("play").checked && st.path.length >= 3 && st.path.length % 2 === 1) st.path.splice(-2, 2);
    else st.path.pop();
  } else {
    if (!st.colHistory.length) return;
    st.colouring = st.colHistory.pop();
  }
  await load();
}

async function reset() {
  if (st.game === "uvg") st.path = [];
  else { st.colHistory = []; st.colouring = ""; }
  await load();
}

function open(game, code, startOrColouring) {
  setGame(game);
  st.code = code;
  $("code").value = code;
  st.view = null;
  st.colHistory = [];
  if (game === "uvg") {
    st.path = startOrColouring === null || startOrColouring === undefined || startOrColouring === "" ? [] : String(startOrColouring).split(",").map(Number);
    st.colouring = "";
    $("colouring").value = "";
  } else {
    st.path = [];
    st.colouring = startOrColouring || "";
    $("colouring").value = st.colouring;
  }
  return load();
}

// ---- game graphs from files ----

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

async function init() {
  st.sid = visitId();
  $("board").addEventListener("click", e => {
    const g = e.target.closest("g.v");
    if (g) clickVertex(Number(g.dataset.v));
  });
  $("entry").addEventListener("submit", e => {
    e.preventDefault();
    // A board typed by hand: no preset or result is chosen, and no note of one stays.
    $("preset").value = "";
    $("results").value = "";
    $("note").textContent = "";
    open($("game").value, $("code").value.trim(), $("game").value === "uvg" ? "" : $("colouring").value.trim());
  });
  $("game").addEventListener("change", () => setGame($("game").value));
  $("undo").addEventListener("click", undo);
  $("reset").addEventListener("click", reset);
  $("preset").addEventListener("change", () => {
    const p = st.presets[Number($("preset").value)];
    if (!p) return;
    $("results").value = "";
    $("note").textContent = p.name + ": " + p.note;
    open(p.game, p.code, p.game === "uvg" ? (p.start === null ? "" : p.start) : p.colouring);
  });
  $("results").addEventListener("change", () => {
    const r = st.results[Number($("results").value)];
    if (!r) return;
    $("preset").value = "";
    $("note").textContent = (r.counterexample ? "counterexample " : "") + r.caption + ": " + r.code + (r.start !== null ? " start " + r.start : "");
    open(r.code.startsWith("&") ? "myopic" : "uvg", r.code, r.code.startsWith("&") ? "" : (r.start === null ? "" : r.start));
  });
  try {
    const p = await api("/explore/api/presets");
    initGameGraph(p);
    st.presets = p.presets;
    st.results = p.results;
    $("preset").innerHTML = '<option value="">—</option>' + p.presets.map((x, i) =>
      '<option value="' + i + '" data-id="' + esc(x.id) + '">' + esc(x.name) + "</option>").join("");
    if (p.results.length) {
      $("results-label").hidden = false;
      $("results").innerHTML = '<option value="">— ' + esc(p.results_source || "") + " —</option>" + p.results.map((x, i) =>
        '<option value="' + i + '">' + (x.counterexample ? "counterexample " : "") + esc(x.caption) + " " + esc(x.code) + "</option>").join("");
    }
  } catch (e) {
    showError("cannot read the presets: " + e.message);
  }
  const q = new URLSearchParams(location.search);
  const game = q.get("game") || "uvg";
  if (q.get("g")) {
    const path = q.get("path") !== null ? q.get("path") : (q.get("s") !== null ? q.get("s") : "");
    await open(["uvg", "col", "myopic"].includes(game) ? game : "uvg", q.get("g"), game === "uvg" ? path : (q.get("c") || ""));
  } else {
    const i = st.presets.findIndex(x => x.id === "petersen");
    if (i >= 0) { $("preset").value = String(i); $("note").textContent = st.presets[i].name + ": " + st.presets[i].note; await open("uvg", st.presets[i].code, ""); }
    else done(false);
  }
}

init();
