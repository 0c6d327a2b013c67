// gamesweep explore: the boards. Asks /explore/api/* for every position and
// draws the answer as SVG; all values come from the server's exact solvers.
//
// A game is a start position and a line of moves; `at` of them are shown
// (the move list steps through it). UVG: `path` is the line (the start
// first, then the token's moves). Col / Myopic Col: `c0` is the start
// colouring, `cmoves` the vertices coloured in turn, `first` the side
// ("L" Blue, "R" Red) that colours first. Playing against the solver the
// person has one role (UVG: first or second player, the first one placing
// the token; Col: a side) and the solver the other; after each of the
// person's moves the solver answers with the move the server computed
// (the quickest win, else the longest resistance).
"use strict";

const st = {
  game: "uvg",
  code: "",
  path: [],          // UVG: the line, start first
  c0: "",            // Col: the start colouring (. L R per vertex)
  cmoves: [],        // Col: the vertices coloured, in turn
  first: "L",        // Col: the side that colours first
  at: 0,             // moves of the line shown
  colouring: "",     // Col: the colouring shown
  colHistory: [],    // Col: start colourings before each paint (undo)
  view: null,        // the last answer shown
  presets: [],
  results: [],
  seq: 0,
  sid: "",
  replay: 0,         // the replay running (0: none)
};

// "1 move to the end", "3 moves to the end" (it said "1 moves").
function movesToEnd(n) {
  return n + (n === 1 ? " move" : " moves") + " to the end";
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
function nim(k) { return k === 0 ? "0" : k === 1 ? "*" : "*" + k; }
const $ = id => document.getElementById(id);
const SIDE = { L: "Blue (Left)", R: "Red (Right)" };
const other = s => s === "L" ? "R" : "L";

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
// A refused move or a link that could not be followed whole: said once,
// next to the board, until the next move.
function notice(msg) {
  const e = $("notice");
  e.textContent = msg || "";
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
  document.body.className = "game-" + g + ($("hide").checked ? " hide-values" : "");
}

// ---- the line: whose move, who plays it ----

const lineLength = () => st.game === "uvg" ? st.path.length : st.cmoves.length;
const playing = () => st.game === "uvg" ? $("play").checked : $("col-play").checked;
// UVG: entry i of the line is the first player's (the start, moves 1, 3,
// ...) or the second's.
const uvgOwner = i => (i === 0 || i % 2 === 1) ? "first" : "second";
// Col: the side colouring move i.
const colSide = i => i % 2 === 0 ? st.first : other(st.first);
// The person's role: UVG "first" / "second", Col "L" / "R".
function you() {
  if (st.game === "uvg") return $("solver-first").checked ? "second" : "first";
  return $("you").value;
}
// The Col side that colours first, from the person's side and order.
function firstSide() {
  return $("order").value === "first" ? $("you").value : other($("you").value);
}
// Who plays entry i: "you", "solver", or null (nobody playing the solver).
function owner(i) {
  if (!playing()) return null;
  const r = st.game === "uvg" ? uvgOwner(i) : colSide(i);
  return r === you() ? "you" : "solver";
}

// The colouring after the first k moves of the line.
function colourAt(k) {
  const c = st.c0.split("");
  for (let i = 0; i < k; i++) c[st.cmoves[i]] = colSide(i);
  return c.join("");
}

// Why colouring `w` for `side` is not a move in colouring `c`, or null.
// Col: a vertex may not take a colour one of its neighbours has; Myopic
// Col: one a vertex it looks at (an arc w → u) has.
function colIllegal(d, c, side, w) {
  if (w < 0 || w >= d.n || !Number.isInteger(w)) return "vertex " + w + " is not on the board (0.." + (d.n - 1) + ")";
  if (c[w] !== ".") return "vertex " + w + " is already " + (c[w] === "L" ? "blue" : "red");
  const colour = side === "L" ? "blue" : "red";
  for (const [a, b] of d.edges) {
    if (d.directed) {
      if (a === w && c[b] === side) return "vertex " + w + " cannot be " + colour + ": it looks at " + colour + " vertex " + b + " (arc " + w + " → " + b + ")";
    } else if ((a === w && c[b] === side) || (b === w && c[a] === side)) {
      return "vertex " + w + " cannot be " + colour + ": it is adjacent to " + colour + " vertex " + (a === w ? b : a);
    }
  }
  return null;
}

// Why entry k of a UVG line (the token to `w`) is not a move, or null.
function uvgIllegal(d, path, k, w) {
  if (!Number.isInteger(w) || w < 0 || w >= d.n) return "vertex " + w + " is not on the board (0.." + (d.n - 1) + ")";
  if (k === 0) return null;
  if (path.slice(0, k).includes(w)) return "vertex " + w + " was already visited";
  const t = path[k - 1];
  if (!d.edges.some(([a, b]) => (a === t && b === w) || (a === w && b === t))) return w + " is not a move: it is not adjacent to the token on " + t;
  return null;
}

// The page's address: the board, the line, how much of it is shown and
// the play settings; opening it restores all of them.
function linkParams() {
  const p = new URLSearchParams();
  if (st.game !== "uvg") p.set("game", st.game);
  p.set("g", st.code);
  if (st.game === "uvg") {
    if (st.path.length) p.set("path", st.path.join(","));
    if (!$("play").checked) p.set("play", "0");
    else if ($("solver-first").checked) p.set("first", "solver");
  } else {
    if (st.c0 && /[LR]/.test(st.c0)) p.set("c", st.c0);
    if (st.cmoves.length) p.set("m", st.cmoves.join(","));
    if ($("col-play").checked) p.set("play", $("you").value);
    if (st.first !== "L") p.set("first", st.first);
  }
  if (st.at < lineLength()) p.set("at", String(st.at));
  if ($("hide").checked) p.set("hide", "1");
  return p;
}
function syncUrl() {
  history.replaceState(null, "", "/explore?" + linkParams().toString());
  $("link").value = location.href;
}

// ---- drawing ----

// Nothing of an earlier position stays on the panel once a request failed.
function clearPanel() {
  for (const id of ["value", "winner", "nu", "nu-s", "deg3", "reply", "path", "col-value", "col-outcome", "col-colouring", "col-table", "col-reply"]) {
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
  // Past the page's budget the values are null (searched ones are filled
  // in from search.js's answers) and the winners come from the matching.
  const moveVal = new Map(v.moves.map(m => [m.vertex, m.value !== null ? m.value : searched([...v.path, m.vertex])]));
  const moveWins = new Map(v.moves.map(m => [m.vertex, m.wins]));
  const startVal = w => v.start_values ? v.start_values[w] : searched([w]);
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
      if (moveVal.has(w)) { c.push("move"); if (moveWins.get(w)) c.push("win"); }
      if (token === null) c.push("start-choice");
      return c.join(" ");
    },
  };
  const labels = w => {
    if (token === null && v.start_wins) { const x = startVal(w); return x === undefined ? ["?", "", v.start_wins[w]] : [nim(x), x, x !== 0]; }
    if (moveVal.has(w)) { const x = moveVal.get(w); return x === undefined ? ["?", "", !moveWins.get(w)] : [nim(x), x, x !== 0]; }
    return null;
  };
  $("board").innerHTML = svgBoard(d, cls, labels);
  const set = (id, text, value) => { const e = $(id); e.textContent = text; if (value === undefined || value === null) delete e.dataset.value; else e.dataset.value = value; };
  const here = token === null ? undefined : (v.value !== null ? v.value : searched(v.path));
  set("value", token === null ? "— (put the token on a vertex)" : here === undefined ? "? (past the page's budget: search it below)" : nim(here) + (here === 0 ? "  (the player to move loses)" : ""), here);
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
  const rows = token === null ? v.start_wins.map((win, w) => [w, startVal(w), "start", win]) : v.moves.map(m => [m.vertex, moveVal.get(m.vertex), "move", m.wins]);
  const unknown = (k, win) => "? (" + (k === "start" ? (win ? "first player wins" : "second player wins") : (win ? "wins" : "loses")) + ")";
  $("moves").querySelector("tbody").innerHTML = rows.map(([w, x, k, win]) =>
    '<tr class="' + k + (win && k === "move" ? " win" : "") + '" data-v="' + w + '"' + (x === undefined ? "" : ' data-value="' + x + '"') + "><td>" + w + "</td><td>" + (x === undefined ? unknown(k, win) : nim(x)) + "</td></tr>").join("");
  searchPanel(v);
  $("method").textContent = v.method + " · " + d.layout + " · max degree " + v.max_degree;
}

function renderCol(v) {
  const d = v.drawing;
  const lo = new Map(v.left_options.map(m => [m.vertex, m.value]));
  const ro = new Map(v.right_options.map(m => [m.vertex, m.value]));
  const cls = {
    vertex: w => {
      const ch = v.colouring[w];
      const last = st.at > 0 && st.cmoves[st.at - 1] === w;
      return "col" + (ch === "L" ? " blue" : ch === "R" ? " red" : "") + (last ? " last" : "");
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
  const p = v.play;
  const r = p && p.reply;
  const e = $("col-reply");
  e.textContent = !p ? "—" : !r ? SIDE[p.side] + " cannot move" :
    SIDE[p.side] + " colours " + r.vertex + " (" + (r.why === "winning" ? "wins" + (r.remoteness !== null ? ", " + movesToEnd(r.remoteness + 1) : "") :
      r.why === "longest" ? "loses whatever it does; the longest resistance" + (r.remoteness !== null ? ": " + movesToEnd(r.remoteness + 1) : "") :
      "loses; the search ran out of budget: the lowest move") + ")";
  if (r) e.dataset.value = String(r.vertex); else delete e.dataset.value;
}


// ---- the move list ----

function renderMoveList() {
  const n = lineLength();
  const items = [];
  for (let i = 0; i < n; i++) {
    const o = owner(i);
    let text;
    if (st.game === "uvg") text = i === 0 ? "start " + st.path[0] : i + ". → " + st.path[i];
    else text = (i + 1) + ". " + (colSide(i) === "L" ? "Blue" : "Red") + " " + st.cmoves[i];
    const who = o === "you" ? "you" : o === "solver" ? "solver" : "";
    items.push('<li class="mv' + (who ? " " + who : "") + (i === st.at - 1 ? " current" : "") + (i >= st.at ? " ahead" : "") +
      '" data-i="' + i + '" data-v="' + (st.game === "uvg" ? st.path[i] : st.cmoves[i]) + '" data-side="' + (st.game === "uvg" ? uvgOwner(i) : colSide(i)) + '" data-who="' + who + '" tabindex="0">' + esc(text) + (who ? ' <span class="who">' + (who === "you" ? "you" : "solver") + "</span>" : "") + "</li>");
  }
  $("movelist").innerHTML = items.join("") || '<li class="muted empty">no moves yet</li>';
  document.body.dataset.at = String(st.at);
  document.body.dataset.len = String(n);
  $("nav-start").disabled = st.at === 0;
  $("nav-back").disabled = st.at === 0;
  $("nav-forward").disabled = st.at >= n;
  $("nav-end").disabled = st.at >= n;
  $("replay").disabled = n === 0;
}

// Who is to move, said under the board.
function renderTurn(v) {
  let t = "";
  if (endMessage(v)) {
    // The end is announced in the message box: nobody is to move.
    t = playing() ? "Game over." : "";
  } else if (st.game === "uvg") {
    if (playing()) {
      const o = owner(st.at);
      t = st.at === 0 ? (o === "you" ? "Your move: put the token on a vertex, then move it." : "The solver's move: it puts the token on a vertex.")
        : (o === "you" ? "Your move." : "The solver's move.");
      t += " You play " + (you() === "first" ? "first" : "second") + ".";
    }
  } else {
    const side = colSide(st.at);
    t = SIDE[side] + " to move";
    if (playing()) t += side === you() ? " — your move (you play " + SIDE[you()] + ")." : " — the solver's move (you play " + SIDE[you()] + ").";
    else t += ".";
  }
  $("turn").textContent = t;
  $("turn").hidden = !t;
  document.body.dataset.turn = playing() ? (owner(st.at) || "") : "";
}

// ---- loading ----

// The end of a game: [text, kind] (kind as showMessage takes it), or null.
function endMessage(v) {
  if (st.game === "uvg") {
    if (v.token === null || v.moves.length) return null;
    if (!playing()) return ["No moves left from " + v.token + ": the player to move loses.", "over"];
    return owner(st.at) === "you" ? ["You cannot move: the solver wins.", "loss"] : ["The solver cannot move: you win!", "win"];
  }
  const side = colSide(st.at);
  const opts = side === "L" ? v.left_options : v.right_options;
  if (opts.length) return null;
  if (!playing()) return [SIDE[side] + " cannot move: " + SIDE[other(side)] + " wins.", "over"];
  return side === you() ? ["You (" + SIDE[side] + ") cannot move: the solver wins.", "loss"] :
    ["The solver (" + SIDE[side] + ") cannot move: you win!", "win"];
}

async function load() {
  searchStop();
  document.body.dataset.state = "busy";
  document.body.classList.toggle("playing", playing());
  document.body.classList.toggle("hide-values", $("hide").checked);
  syncUrl();
  try {
    let v;
    if (st.game === "uvg") {
      v = await api("/explore/api/uvg?g=" + encodeURIComponent(st.code) + "&path=" + st.path.slice(0, st.at).join(","));
      renderUvg(v);
    } else {
      st.colouring = colourAt(st.at);
      v = await api("/explore/api/col?rules=" + st.game + "&g=" + encodeURIComponent(st.code) +
        "&c=" + encodeURIComponent(st.colouring) + "&sid=" + st.sid + "&side=" + colSide(st.at));
      if (st.c0 === "") st.c0 = v.colouring;
      st.colouring = v.colouring;
      $("colouring").value = st.c0;
      renderCol(v);
    }
    st.view = v;
    showError("");
    const end = endMessage(v);
    showMessage(end && end[0], end && end[1]);
    renderTurn(v);
    renderMoveList();
    gsAnalysis.position();
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
    renderMoveList();
    gsAnalysis.position();
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

// Add `w` as the next move after the `at` shown (a line ahead of them is
// cut off, as a new move in an analysis board does) and show it.
async function push(w) {
  if (st.game === "uvg") st.path = st.path.slice(0, st.at).concat([w]);
  else st.cmoves = st.cmoves.slice(0, st.at).concat([w]);
  st.at += 1;
  if (!(await load())) {
    await revert(() => { st.at -= 1; if (st.game === "uvg") st.path.pop(); else st.cmoves.pop(); });
    return false;
  }
  return true;
}

// Is it the solver's turn, with a move to make?
function solverToMove() {
  const v = st.view;
  if (!v || !playing() || owner(st.at) !== "solver") return false;
  if (st.game === "uvg") return v.token === null ? !!v.start_reply : !!(v.reply && v.moves.length);
  return !!(v.play && v.play.reply);
}

// The solver's moves until it is the person's turn (or the game is over):
// UVG, moving first, it puts the token down and then moves.
async function solverMoves() {
  for (let k = 0; k < 2 && solverToMove(); k++) {
    const v = st.view;
    const w = st.game === "uvg" ? (v.token === null ? v.start_reply.vertex : v.reply.vertex) : v.play.reply.vertex;
    if (!(await push(w))) return;
    if (st.game !== "uvg" || st.at > 1) return;
  }
}

async function clickVertex(w) {
  const v = st.view;
  if (!v || document.body.dataset.state === "busy") return;
  stopReplay();
  notice("");
  if (playing() && owner(st.at) === "solver") {
    notice("It is the solver's move: press “Solver plays”, or step through the moves.");
    return;
  }
  if (st.game === "uvg") {
    const why = v.token === null ? null : (v.moves.some(m => m.vertex === w) ? null :
      (v.moves.length ? uvgIllegal(v.drawing, st.path.slice(0, st.at), st.at, w) || (w + " is not a move") : "the game is over: no move from " + v.token));
    if (why) { notice(why); return; }
    if (!(await push(w))) return;
    await solverMoves();
  } else if (playing()) {
    if ($("message").dataset.outcome) { notice("The game is over: step back, or press New game."); return; }
    const side = colSide(st.at);
    const why = colIllegal(v.drawing, st.colouring, side, w);
    if (why) { notice(why); return; }
    if (!(await push(w))) return;
    await solverMoves();
  } else {
    // Setting up: the colouring painted becomes the start, the line goes.
    const paint = document.querySelector('input[name="paint"]:checked').value;
    const cur = st.colouring.split("");
    if (cur[w] === paint) return;
    cur[w] = paint;
    st.colHistory.push([st.c0, st.cmoves, st.at]);
    st.c0 = cur.join("");
    st.cmoves = [];
    st.at = 0;
    if (!(await load())) {
      // An illegal colouring: the error stays shown, the board as it was.
      await revert(() => { [st.c0, st.cmoves, st.at] = st.colHistory.pop(); });
    }
  }
}

// Take back the last move, cutting it off the line; playing, back to the
// person's previous turn (the solver's answer and the move before it).
function backToYou(at) {
  let k = at - 1;
  while (k > 0 && owner(k) !== "you") k--;
  return k;
}
async function undo() {
  stopReplay();
  notice("");
  if (st.game === "uvg" || st.cmoves.length || playing()) {
    if (!st.at) return;
    st.at = playing() ? backToYou(st.at) : st.at - 1;
    if (st.game === "uvg") st.path = st.path.slice(0, st.at);
    else st.cmoves = st.cmoves.slice(0, st.at);
  } else {
    if (!st.colHistory.length) return;
    [st.c0, st.cmoves, st.at] = st.colHistory.pop();
  }
  await load();
}

// A new game from the start position (UVG: no token; Col: the start
// colouring; set up, Reset clears it); the solver moves if it is its turn.
async function reset() {
  stopReplay();
  notice("");
  if (st.game === "uvg") st.path = [];
  else {
    st.first = firstSide();
    if (!playing()) { st.colHistory = []; st.c0 = ""; }
    st.cmoves = [];
  }
  st.at = 0;
  if (await load()) await solverMoves();
}

// Show the first `k` moves of the line.
async function goTo(k) {
  notice("");
  st.at = Math.max(0, Math.min(lineLength(), k));
  await load();
}
function stopReplay() { st.replay = 0; }
// The line again from the start, a move every 400 ms (any other action
// stops it).
async function replay() {
  const id = Date.now();
  st.replay = id;
  await goTo(0);
  while (st.replay === id && st.at < lineLength()) {
    await new Promise(r => setTimeout(r, 400));
    if (st.replay !== id) return;
    await goTo(st.at + 1);
  }
  if (st.replay === id) st.replay = 0;
}

// The solver's move now, when it is its turn (the person moved second,
// or stepped back to one of its moves).
async function solverPlays() {
  stopReplay();
  notice("");
  if (!playing()) { notice("Not playing the solver: tick “play against the solver”."); return; }
  if (owner(st.at) !== "solver") { notice("It is your move."); return; }
  if (!solverToMove()) { notice("The solver has no move: the game is over."); return; }
  await solverMoves();
}

async function copyLink() {
  syncUrl();
  try {
    await navigator.clipboard.writeText(location.href);
    notice("Link copied.");
  } catch (e) {
    $("link").select();
    notice("Select the link below and copy it (the browser did not allow copying).");
  }
}

// Open a board. `line`: UVG the token's path (array or "0,3,2"), Col the
// start colouring; `moves`, `at`: Col's moves and how many to show.
function open(game, code, line, moves, at) {
  stopReplay();
  notice("");
  setGame(game);
  st.code = code;
  $("code").value = code;
  st.view = null;
  st.colHistory = [];
  if (game === "uvg") {
    st.path = Array.isArray(line) ? line : (line === null || line === undefined || line === "" ? [] : String(line).split(",").map(Number));
    st.c0 = ""; st.cmoves = [];
    $("colouring").value = "";
  } else {
    st.path = [];
    st.c0 = line || "";
    st.cmoves = moves || [];
    st.first = firstSide();
    $("colouring").value = st.c0;
  }
  st.at = at === undefined || at === null ? lineLength() : at;
  return load();
}

// ---- links ----

// Parse a list of vertices from a link: numbers, or null.
function vertexList(s) {
  if (s === null || s.trim() === "") return [];
  const xs = s.split(",").map(x => x.trim());
  return xs.every(x => /^\d{1,3}$/.test(x)) ? xs.map(Number) : null;
}

// Open the position a link names. Whatever is wrong with it is said (the
// board shows as much of it as is right), never a blank page.
async function openLink(q) {
  const problems = [];
  let game = q.get("game") || "uvg";
  if (!["uvg", "col", "myopic"].includes(game)) { problems.push("unknown game “" + game.slice(0, 20) + "” (uvg, col or myopic)"); game = "uvg"; }
  const hide = q.get("hide");
  $("hide").checked = hide === "1";
  if (game === "uvg") {
    const play = q.get("play"), first = q.get("first");
    if (play !== null && play !== "0" && play !== "1") problems.push("play=" + play.slice(0, 20) + " (0 or 1)");
    $("play").checked = play !== "0";
    if (first !== null && first !== "solver" && first !== "you") problems.push("first=" + first.slice(0, 20) + " (you or solver)");
    $("solver-first").checked = first === "solver";
  } else {
    const play = q.get("play"), first = q.get("first") || "L";
    if (play !== null && play !== "L" && play !== "R") problems.push("play=" + play.slice(0, 20) + " (L or R)");
    if (!["L", "R"].includes(first)) problems.push("first=" + first.slice(0, 20) + " (L or R)");
    const col = play === "L" || play === "R";
    $("col-play").checked = col;
    $("you").value = col ? play : "L";
    const f = ["L", "R"].includes(first) ? first : "L";
    $("order").value = f === $("you").value ? "first" : "second";
  }
  const pathText = game === "uvg" ? (q.get("path") !== null ? q.get("path") : (q.get("s") !== null ? q.get("s") : "")) : q.get("m");
  let line = vertexList(pathText);
  if (line === null) { problems.push("the moves “" + pathText.slice(0, 40) + "” are not a list of vertices"); line = []; }
  const atText = q.get("at");
  let at = line.length;
  if (atText !== null) {
    if (/^\d{1,4}$/.test(atText) && Number(atText) <= line.length) at = Number(atText);
    else problems.push("at=" + atText.slice(0, 20) + " (0.." + line.length + ")");
  }
  setGame(game);
  // The start position first: its drawing checks the moves.
  const ok = await open(game, q.get("g"), game === "uvg" ? [] : (q.get("c") || ""), [], 0);
  if (ok && line.length) {
    const d = st.view.drawing;
    let good = 0;
    for (; good < line.length; good++) {
      const w = line[good];
      const why = game === "uvg" ? uvgIllegal(d, line, good, w) : colIllegal(d, (() => { st.cmoves = line; return colourAt(good); })(), colSide(good), w);
      if (why) { problems.push("move " + (good + 1) + " of the link: " + why + "; the moves before it are shown"); break; }
    }
    line = line.slice(0, good);
    if (game === "uvg") st.path = line; else st.cmoves = line;
    st.at = Math.min(at, line.length);
    await load();
  }
  if (problems.length) notice("This link could not be followed whole: " + problems.join("; ") + ".");
}

async function init() {
  st.sid = visitId();
  gsAnalysis.init();
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
  $("solver-move").addEventListener("click", solverPlays);
  $("nav-start").addEventListener("click", () => { stopReplay(); goTo(0); });
  $("nav-back").addEventListener("click", () => { stopReplay(); goTo(st.at - 1); });
  $("nav-forward").addEventListener("click", () => { stopReplay(); goTo(st.at + 1); });
  $("nav-end").addEventListener("click", () => { stopReplay(); goTo(lineLength()); });
  $("replay").addEventListener("click", replay);
  $("copy-link").addEventListener("click", copyLink);
  $("movelist").addEventListener("click", e => {
    const li = e.target.closest("li[data-i]");
    if (li) { stopReplay(); goTo(Number(li.dataset.i) + 1); }
  });
  // Playing UVG: the solver moving first is a new game.
  $("play").addEventListener("change", () => load());
  $("solver-first").addEventListener("change", () => { if (st.game === "uvg") reset(); });
  // Playing Col: a game from the position shown, the sides and order as chosen.
  const newColGame = async () => {
    stopReplay();
    notice("");
    st.c0 = st.colouring || st.c0;
    st.cmoves = [];
    st.at = 0;
    st.first = firstSide();
    if (await load()) await solverMoves();
  };
  $("col-play").addEventListener("change", () => $("col-play").checked ? newColGame() : load());
  $("you").addEventListener("change", newColGame);
  $("order").addEventListener("change", newColGame);
  $("hide").addEventListener("change", () => { setGame(st.game); syncUrl(); });
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
  if (q.get("g")) {
    await openLink(q);
  } else {
    const i = st.presets.findIndex(x => x.id === "petersen");
    if (i >= 0) { $("preset").value = String(i); $("note").textContent = st.presets[i].name + ": " + st.presets[i].note; await open("uvg", st.presets[i].code, ""); }
    else done(false);
    if (q.toString()) notice("This link names no board (g=GRAPH6 is missing): showing the Petersen graph.");
  }
}

init();
