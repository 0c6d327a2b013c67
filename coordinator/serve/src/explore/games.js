// The games the boards play, one object each, registered in `GAMES`; the
// board (explore.js) and the analysis panel call only this interface and
// never ask which game they have. A game is a start position and a line of
// moves (`st.line`, the vertices played in turn; `st.at` of them shown).
//
// A board game has:
// - name, label: its name in links and terms, and for people;
// - playBox: the id of its "play against the solver" box;
// - controls: {element id: (board) => ...}, its own controls' change handlers;
// - you(): the person's role; side(st, i): whose entry i of the line is
//   (roles and sides compare equal when the same player plays them);
//   first(): the side that moves first as the controls say (Col);
// - view(board): the position shown, asked of the server; render(board, v);
// - moveText(st, i), turn(board, v), end(board, v) ([text, kind] or null);
// - solverMove(v): the vertex the solver plays from `v`, or null;
// - refuse(board, v, w): why clicking `w` is not a move, or null;
// - setUp: whether a person paints the start position (paint(st, w, colour));
// - reset(board): the line emptied for a new game from the start;
// - link(board, params) and readLink(q, problems): the page's address;
// - illegalAt(st, drawing, line, k): why entry k of `line` is not a move;
// - preset(p) and typed(): a start {start, line} from a preset or the form;
//   witnessLink(params, witness): a sweep's witness's start or colouring in its link;
// - term(st, v): [the position as a `solve sum` term, or null; why not];
//   title(st, v): its name in the sum's list.
// Every game answering the tree and sum routes (these and `gamegraph`) has
// treeMove(label, side) and sumMove(move): a move's words there (`side`:
// "L" or "R" in a partizan game).
import { $, html, setFact, setHtml } from "./html.js";
import { SIDE, getJson, movesToEnd, nim, other } from "./api.js";
import { svgBoard } from "./draw.js";

// A sweep's witness's start in its link (`s`), when it has one.
function startLink(q, w) {
  if (w.start !== null && w.start !== undefined) q.set("s", String(w.start));
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

// UVG: entry i of the line is the first player's (the start, moves 1, 3,
// ...) or the second's.
const uvgOwner = i => (i === 0 || i % 2 === 1) ? "first" : "second";

function renderUvg(b, v) {
  const { search } = b;
  const d = v.drawing;
  const alive = new Set(v.alive);
  const unmatched = new Set(v.unmatched);
  // Past the page's budget the values are null (searched ones are filled
  // in from the search panel's answers) and the winners come from the matching.
  const moveVal = new Map(v.moves.map(m => [m.vertex, m.value !== null ? m.value : search.found([...v.path, m.vertex])]));
  const moveWins = new Map(v.moves.map(m => [m.vertex, m.wins]));
  const startVal = w => v.start_values ? v.start_values[w] : search.found([w]);
  const token = v.token;
  const trail = v.path.slice(1).map((w, i) => {
    const [x1, y1] = d.coords[v.path[i]], [x2, y2] = d.coords[w];
    return html`<line class="trail" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
  });
  const gold = v.matching.map(([a, w]) => {
    const [x1, y1] = d.coords[a], [x2, y2] = d.coords[w];
    return html`<line class="match" data-u="${a}" data-w="${w}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
  });
  const cls = {
    extra: gold,
    over: trail,
    edge: (a, w) => alive.has(a) && alive.has(w) ? "" : " dead",
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
  setHtml($("board"), svgBoard(d, cls, labels));
  const here = token === null ? undefined : (v.value !== null ? v.value : search.found(v.path));
  setFact("value", token === null ? "— (put the token on a vertex)" : here === undefined ? "? (past the page's budget: search it below)" : nim(here) + (here === 0 ? "  (the player to move loses)" : ""), here);
  setFact("winner", v.mover_wins === null ? "—" : v.mover_wins ? "wins (ν(G) > ν(G − s))" : "loses (ν(G) = ν(G − s))");
  setFact("nu", String(v.nu), v.nu);
  setFact("nu-s", v.nu_without_token === null ? "—" : String(v.nu_without_token), v.nu_without_token);
  setFact("deg3", v.degree3 ? nim(v.degree3[0]) + " after " + v.degree3[1] + " win/lose tests" :
    (token === null ? "—" : "not applicable (a vertex of degree > 3)"), v.degree3 ? v.degree3[0] : null);
  setFact("reply", v.reply ? v.reply.vertex + " (" + v.reply.why + (v.reply.remoteness !== null ? ", " + v.reply.remoteness + (v.reply.remoteness === 1 ? " move left" : " moves left") : "") + ")" : "—");
  setFact("path", v.path.length ? v.path.join(" → ") : "—");
  $("hint").textContent = token === null ? "Click a vertex to put the token there. The numbers are the Grundy value of each start." :
    v.moves.length ? "Click a highlighted neighbour to move (green: value 0, a winning move)." :
      "Game over: no move from " + token + ". Undo takes moves back; Reset starts again.";
  $("moves-head").textContent = token === null ? "start" : "move to";
  const rows = token === null ? v.start_wins.map((win, w) => [w, startVal(w), "start", win]) : v.moves.map(m => [m.vertex, moveVal.get(m.vertex), "move", m.wins]);
  const unknown = (k, win) => "? (" + (k === "start" ? (win ? "first player wins" : "second player wins") : (win ? "wins" : "loses")) + ")";
  setHtml($("moves").querySelector("tbody"), html`${rows.map(([w, x, k, win]) =>
    html`<tr class="${k}${win && k === "move" ? " win" : ""}" data-v="${w}"${x !== undefined && html` data-value="${x}"`}><td>${w}</td><td>${x === undefined ? unknown(k, win) : nim(x)}</td></tr>`)}`);
  search.panel(v);
  $("method").textContent = v.method + " · " + d.layout + " · max degree " + v.max_degree;
}

/** Undirected vertex geography: a token moved along a path. */
export const uvg = {
  name: "uvg",
  label: "UVG",
  playBox: "play",
  setUp: false,
  // Playing: the solver moving first is a new game.
  controls: {
    "play": b => b.load(),
    "solver-first": b => b.reset(),
  },
  you: () => $("solver-first").checked ? "second" : "first",
  first: () => "L",
  side: (st, i) => uvgOwner(i),
  async view(b) {
    const { st } = b;
    return getJson("/explore/api/uvg?g=" + encodeURIComponent(st.code) + "&path=" + st.line.slice(0, st.at).join(","));
  },
  render: renderUvg,
  moveText: (st, i) => i === 0 ? "start " + st.line[0] : i + ". → " + st.line[i],
  turn(b) {
    if (!b.playing()) return "";
    const { st } = b, o = b.owner(st.at);
    const t = st.at === 0 ? (o === "you" ? "Your move: put the token on a vertex, then move it." : "The solver's move: it puts the token on a vertex.")
      : (o === "you" ? "Your move." : "The solver's move.");
    return t + " You play " + (uvg.you() === "first" ? "first" : "second") + ".";
  },
  end(b, v) {
    if (v.token === null || v.moves.length) return null;
    if (!b.playing()) return ["No moves left from " + v.token + ": the player to move loses.", "over"];
    return b.owner(b.st.at) === "you" ? ["You cannot move: the solver wins.", "loss"] : ["The solver cannot move: you win!", "win"];
  },
  // Moving first, the solver puts the token down and then moves.
  solverMove(v) {
    if (v.token === null) return v.start_reply ? v.start_reply.vertex : null;
    return v.reply && v.moves.length ? v.reply.vertex : null;
  },
  refuse(b, v, w) {
    if (v.token === null || v.moves.some(m => m.vertex === w)) return null;
    return v.moves.length ? uvgIllegal(v.drawing, b.st.line.slice(0, b.st.at), b.st.at, w) || (w + " is not a move")
      : "the game is over: no move from " + v.token;
  },
  reset(b) { b.st.line = []; },
  link(b, p) {
    const { st } = b;
    if (st.line.length) p.set("path", st.line.join(","));
    if (!$("play").checked) p.set("play", "0");
    else if ($("solver-first").checked) p.set("first", "solver");
  },
  readLink(q, problems) {
    const play = q.get("play"), first = q.get("first");
    if (play !== null && play !== "0" && play !== "1") problems.push("play=" + play.slice(0, 20) + " (0 or 1)");
    $("play").checked = play !== "0";
    if (first !== null && first !== "solver" && first !== "you") problems.push("first=" + first.slice(0, 20) + " (you or solver)");
    $("solver-first").checked = first === "solver";
    return { start: "", moves: q.get("path") !== null ? q.get("path") : (q.get("s") !== null ? q.get("s") : "") };
  },
  illegalAt: (st, d, line, k) => uvgIllegal(d, line, k, line[k]),
  preset: p => ({ start: "", line: p.start === null ? [] : [p.start] }),
  witnessLink: startLink,
  typed: () => ({ start: "", line: [] }),
  term(st, v) {
    if (v.token === null) return [null, "put the token on a vertex first: a UVG position has one"];
    return ["uvg:" + st.code + "@" + v.path.join(","), null];
  },
  title: (st, v) => "UVG " + st.code + ", token path " + v.path.join("→"),
  treeMove: label => "token to " + label,
  sumMove: m => "moving the token to " + m,
};

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

// Col: the side colouring move i.
const colSide = (st, i) => i % 2 === 0 ? st.first : other(st.first);

// The colouring after the first k moves of `line` from `st.start`.
function colourAt(st, line, k) {
  const c = st.start.split("");
  for (let i = 0; i < k; i++) c[line[i]] = colSide(st, i);
  return c.join("");
}

// The Col side that colours first, from the person's side and order.
function firstSide() {
  return $("order").value === "first" ? $("you").value : other($("you").value);
}

const OUTCOME = { L: "L: Blue (Left) wins", R: "R: Red (Right) wins", N: "N: the first player wins", P: "P: the second player wins" };

function renderCol(b, v, label) {
  const { st } = b;
  const d = v.drawing;
  const lo = new Map(v.left_options.map(m => [m.vertex, m.value]));
  const ro = new Map(v.right_options.map(m => [m.vertex, m.value]));
  const cls = {
    vertex: w => {
      const ch = v.colouring[w];
      const last = st.at > 0 && st.line[st.at - 1] === w;
      return "col" + (ch === "L" ? " blue" : ch === "R" ? " red" : "") + (last ? " last" : "");
    },
  };
  setHtml($("board"), svgBoard(d, cls, () => null));
  setFact("col-value", v.value, v.value);
  setFact("col-outcome", OUTCOME[v.outcome] || v.outcome, v.outcome);
  $("col-colouring").textContent = v.colouring;
  $("col-table").textContent = v.table_games + " values" + (v.table_reset ? " (started afresh: it had reached the budget)" : "");
  const rows = [];
  for (let w = 0; w < d.n; w++) {
    if (!lo.has(w) && !ro.has(w)) continue;
    rows.push(html`<tr data-v="${w}"><td>${w}</td><td class="left" data-value="${lo.has(w) ? lo.get(w) : ""}">${lo.has(w) ? lo.get(w) : "—"}</td><td class="right" data-value="${ro.has(w) ? ro.get(w) : ""}">${ro.has(w) ? ro.get(w) : "—"}</td></tr>`);
  }
  setHtml($("col-moves").querySelector("tbody"), rows.length ? html`${rows}` : html`<tr><td colspan="3" class="muted">no moves: the player to move loses</td></tr>`);
  $("method").textContent = label + " · canonical value (CGSuite notation) · " + d.layout;
  const p = v.play;
  const r = p && p.reply;
  const e = $("col-reply");
  e.textContent = !p ? "—" : !r ? SIDE[p.side] + " cannot move" :
    SIDE[p.side] + " colours " + r.vertex + " (" + (r.why === "winning" ? "wins" + (r.remoteness !== null ? ", " + movesToEnd(r.remoteness + 1) : "") :
      r.why === "longest" ? "loses whatever it does; the longest resistance" + (r.remoteness !== null ? ": " + movesToEnd(r.remoteness + 1) : "") :
        "loses; the search ran out of budget: the lowest move") + ")";
  if (r) e.dataset.value = String(r.vertex); else delete e.dataset.value;
}

// Playing Col: a game from the position shown, the sides and order as chosen.
function fromShown(b) {
  return b.restart(st => {
    st.start = st.colouring || st.start;
    st.line = [];
    st.at = 0;
    st.first = firstSide();
  });
}

/** Col (`rules` "col") or Myopic Col ("myopic"): vertices coloured in turn. */
function colGame(rules, label) {
  const game = {
    name: rules,
    label,
    playBox: "col-play",
    setUp: true,
    controls: {
      "col-play": b => $("col-play").checked ? fromShown(b) : b.load(),
      "you": fromShown,
      "order": fromShown,
    },
    you: () => $("you").value,
    first: firstSide,
    side: colSide,
    async view(b) {
      const { st } = b;
      st.colouring = colourAt(st, st.line, st.at);
      const v = await getJson("/explore/api/col?rules=" + rules + "&g=" + encodeURIComponent(st.code) +
        "&c=" + encodeURIComponent(st.colouring) + "&sid=" + st.sid + "&side=" + colSide(st, st.at));
      if (st.start === "") st.start = v.colouring;
      st.colouring = v.colouring;
      $("colouring").value = st.start;
      return v;
    },
    render: (b, v) => renderCol(b, v, label),
    moveText: (st, i) => (i + 1) + ". " + (colSide(st, i) === "L" ? "Blue" : "Red") + " " + st.line[i],
    turn(b) {
      const side = colSide(b.st, b.st.at);
      const you = game.you();
      if (!b.playing()) return SIDE[side] + " to move.";
      return SIDE[side] + " to move" + (side === you ? " — your move (you play " + SIDE[you] + ")." : " — the solver's move (you play " + SIDE[you] + ").");
    },
    end(b, v) {
      const side = colSide(b.st, b.st.at);
      const opts = side === "L" ? v.left_options : v.right_options;
      if (opts.length) return null;
      if (!b.playing()) return [SIDE[side] + " cannot move: " + SIDE[other(side)] + " wins.", "over"];
      return side === game.you() ? ["You (" + SIDE[side] + ") cannot move: the solver wins.", "loss"] :
        ["The solver (" + SIDE[side] + ") cannot move: you win!", "win"];
    },
    solverMove: v => v.play && v.play.reply ? v.play.reply.vertex : null,
    refuse(b, v, w) {
      if (b.ended()) return "The game is over: step back, or press New game.";
      return colIllegal(v.drawing, b.st.colouring, colSide(b.st, b.st.at), w);
    },
    // Setting up: the colouring painted becomes the start (null: no change).
    paint(st, w, colour) {
      const cur = st.colouring.split("");
      if (cur[w] === colour) return null;
      cur[w] = colour;
      return cur.join("");
    },
    reset(b) {
      const { st } = b;
      st.first = firstSide();
      if (!b.playing()) { st.history = []; st.start = ""; }
      st.line = [];
    },
    link(b, p) {
      const { st } = b;
      if (st.start && /[LR]/.test(st.start)) p.set("c", st.start);
      if (st.line.length) p.set("m", st.line.join(","));
      if ($("col-play").checked) p.set("play", $("you").value);
      if (st.first !== "L") p.set("first", st.first);
    },
    readLink(q, problems) {
      const play = q.get("play"), first = q.get("first") || "L";
      if (play !== null && play !== "L" && play !== "R") problems.push("play=" + play.slice(0, 20) + " (L or R)");
      if (!["L", "R"].includes(first)) problems.push("first=" + first.slice(0, 20) + " (L or R)");
      const col = play === "L" || play === "R";
      $("col-play").checked = col;
      $("you").value = col ? play : "L";
      const f = ["L", "R"].includes(first) ? first : "L";
      $("order").value = f === $("you").value ? "first" : "second";
      return { start: q.get("c") || "", moves: q.get("m") };
    },
    illegalAt: (st, d, line, k) => colIllegal(d, colourAt(st, line, k), colSide(st, k), line[k]),
    preset: p => ({ start: p.colouring, line: [] }),
    witnessLink: (q, w) => { if (w.colouring) q.set("c", w.colouring); },
    typed: () => ({ start: $("colouring").value.trim(), line: [] }),
    term: (st, v) => [rules + ":" + st.code + ":" + v.colouring, null],
    title: (st, v) => label + " " + st.code + ", colouring " + v.colouring,
    treeMove: (move, side) => (side === "L" ? "Blue " : "Red ") + move,
    sumMove: m => "colouring " + m,
  };
  return game;
}

export const col = colGame("col", "Col");
export const myopic = colGame("myopic", "Myopic Col");

// ---- the games of the graph-game layer: one object for all of them ----

// Where a move is made, in words: a vertex "3", an edge "2–5" (an arc "2 → 5").
function placeText(p, directed) {
  if (!p) return null;
  if (p.vertex !== undefined) return String(p.vertex);
  return p.edge[0] + (directed ? " → " : "–") + p.edge[1];
}

const LAYERED_CLASS = { x: "gone", L: "blue", R: "red", T: "token", v: "visited" };

// A layered game's side of entry i of the line: partizan games alternate
// from the side that moves first ("L", "R"), impartial ones from the first
// player ("first", "second").
function layeredSide(info, st, i) {
  if (info.impartial) return i % 2 === 0 ? "first" : "second";
  return i % 2 === 0 ? st.first : other(st.first);
}

// A layered answer's moves of the side to move.
const toMove = v => v.position ? v.position.moves.filter(m => m.side === v.position.to_move) : [];

function renderLayered(b, v, info) {
  const { st } = b;
  const d = v.drawing, p = v.position;
  const pic = p ? p.picture.vertices : "";
  const used = new Set(p ? p.picture.used.map(([a, w]) => a + "," + w) : []);
  const mine = toMove(v);
  const byVertex = new Map(mine.filter(m => m.place && m.place.vertex !== undefined).map(m => [m.place.vertex, m]));
  const starts = new Map(p ? [] : v.starts.filter(s => s.place && s.place.vertex !== undefined).map(s => [s.place.vertex, s]));
  // Moves on edges get a handle at the edge's middle, with their value.
  const onEdges = mine.filter(m => m.place && m.place.edge).map(m => {
    const [a, w] = m.place.edge, [x1, y1] = d.coords[a], [x2, y2] = d.coords[w];
    const x = (x1 + x2) / 2, y = (y1 + y2) / 2;
    return html`<g class="emove${m.wins ? " win" : ""}" data-option="${m.index}"><circle cx="${x}" cy="${y}" r="9"/><text class="val${m.value === "0" ? "" : " nonzero"}" data-value="${m.value}" x="${x}" y="${y - 13}">${m.value}</text></g>`;
  });
  const cls = {
    over: onEdges,
    edge: (a, w) => used.has(a + "," + w) || (pic && (pic[a] === "x" || pic[w] === "x")) ? " dead" : "",
    vertex: w => {
      const c = ["lg"];
      if (pic && LAYERED_CLASS[pic[w]]) c.push(LAYERED_CLASS[pic[w]]);
      if (byVertex.has(w)) { c.push("move"); if (byVertex.get(w).wins) c.push("win"); }
      if (starts.has(w)) c.push("start-choice");
      return c.join(" ");
    },
  };
  const labels = w => {
    const m = byVertex.get(w) || starts.get(w);
    if (!m) return null;
    return [m.value, m.value, m.value !== "0"];
  };
  setHtml($("board"), svgBoard(d, cls, labels));
  const sideWord = s => s ? SIDE[s] : "the player to move";
  setFact("lg-value", p ? p.value : "— (choose a start)", p ? p.value : null);
  setFact("lg-outcome", p ? OUTCOME[p.outcome] || p.outcome : "—", p ? p.outcome : null);
  setFact("lg-mover", p ? sideWord(p.to_move) + (p.mover_wins ? " wins" : " loses") + " (" + movesToEnd(p.remoteness) + ")" : "—", p ? String(p.mover_wins) : null);
  const r = p && p.reply !== null ? mine.find(m => m.index === p.reply) : null;
  setFact("lg-reply", r ? (placeText(r.place, d.directed) || "option " + r.index) + " (" + (r.wins ? "wins" : "loses whatever it does; the longest resistance") + ", " + movesToEnd(r.remoteness + 1) + ")" : "—", r ? r.index : null);
  setFact("lg-start", p ? p.describe : "—", v.start);
  const rows = p ? p.moves.map(m => html`<tr class="${m.wins ? "win" : ""}${m.side === p.to_move ? " playable" : ""}" data-side="${m.side || ""}"${m.side === p.to_move && html` data-option="${m.index}"`} data-value="${m.value}"><td>${
    placeText(m.place, d.directed) || "option " + m.index}</td>${!info.impartial && html`<td>${SIDE[m.side]}</td>`}<td>${m.value}</td><td>${m.outcome}</td></tr>`)
    : v.starts.map(s => html`<tr class="start" data-start="${s.index}" data-value="${s.value}"><td>${s.describe}</td>${!info.impartial && html`<td>—</td>`}<td>${s.value}</td><td>${s.outcome}</td></tr>`);
  setHtml($("lg-moves"), html`<thead><tr><th>${p ? "move" : "start"}</th>${!info.impartial && html`<th>side</th>`}<th>value</th><th>outcome</th></tr></thead><tbody>${
    rows.length ? rows : html`<tr><td colspan="4" class="muted">no moves</td></tr>`}</tbody>`);
  $("lg-hint").textContent = !p ? "Click a vertex (or a row of the table) to choose the start; the numbers are the value of each start." :
    mine.length ? "Click a highlighted vertex or edge handle, or a row of the table, to move (green: a winning move)." :
      "No move left: " + sideWord(p.to_move) + " loses. Undo takes moves back; Reset starts again.";
  $("method").textContent = info.title + " · " + (info.impartial ? "Grundy values (mex)" : "canonical values (CGSuite notation)") + " · " + d.layout + " · " + v.work + " positions";
  if (!st.line.length) st.texts = [];
  v.line.forEach((m, i) => { st.texts[i] = placeText(m.place, d.directed) || "option " + m.index; });
}

/** A game of the graph-game layer, as the server describes it (`info`: its
 *  name, title, rule, impartial or not, digraphs or not): every such game
 *  is this one object, driven by the server's answers. */
export function layeredGame(info) {
  const game = {
    name: info.name,
    label: info.title,
    bodyClass: "game-layered " + (info.impartial ? "impartial" : "partizan"),
    playBox: "lg-play",
    setUp: false,
    controls: {
      "lg-play": b => b.load(),
      "lg-side": b => b.reset(),
      "lg-order": b => b.reset(),
    },
    you: () => info.impartial ? $("lg-order").value : $("lg-side").value,
    first: () => info.impartial ? "L" : ($("lg-order").value === "first" ? $("lg-side").value : other($("lg-side").value)),
    side: (st, i) => layeredSide(info, st, i),
    async view(b) {
      const { st } = b;
      return getJson("/explore/api/layered?game=" + encodeURIComponent(info.name) + "&g=" + encodeURIComponent(st.code) +
        "&s=" + encodeURIComponent(st.start) + "&m=" + st.line.slice(0, st.at).join(",") + "&first=" + st.first);
    },
    render: (b, v) => renderLayered(b, v, info),
    moveText(st, i) {
      const s = layeredSide(info, st, i);
      return (i + 1) + ". " + (info.impartial ? "" : (s === "L" ? "Blue " : "Red ")) + (st.texts[i] || "option " + st.line[i]);
    },
    turn(b, v) {
      if (!v.position) return "Choose a start: click a vertex, or a row of the table.";
      const { st } = b, side = layeredSide(info, st, st.at);
      const who = info.impartial ? "" : SIDE[side] + " to move";
      if (!b.playing()) return who ? who + "." : "";
      const o = b.owner(st.at);
      const yours = info.impartial ? "you play " + game.you() : "you play " + SIDE[game.you()];
      const t = o === "you" ? "your move" : "the solver's move";
      return (who ? who + " — " + t : t[0].toUpperCase() + t.slice(1)) + " (" + yours + ").";
    },
    end(b, v) {
      if (!v.position || toMove(v).length) return null;
      const loser = v.position.to_move ? SIDE[v.position.to_move] : "the player to move";
      if (!b.playing()) return ["No move left: " + loser + " loses.", "over"];
      return b.owner(b.st.at) === "you" ? ["You cannot move: the solver wins.", "loss"] : ["The solver cannot move: you win!", "win"];
    },
    solverMove: v => v.position && v.position.reply !== null ? v.position.reply : null,
    // A click before a start is chosen chooses it (and the solver moves,
    // if it is its turn); true when the click was that.
    pick(b, v, w) {
      if (v.position) return false;
      const s = v.starts.find(x => x.place && x.place.vertex === w);
      if (!s) return false;
      game.pickStart(b, s.index);
      return true;
    },
    pickStart(b, index) {
      b.restart(st => { st.start = String(index); st.line = []; st.at = 0; st.texts = []; });
    },
    refuse(b, v, w) {
      if (!v.position) return "vertex " + w + " is no start: choose one of the highlighted vertices or a row of the table";
      if (b.ended()) return "The game is over: step back, or press New game.";
      if (!toMove(v).length) return "no move left";
      return toMove(v).some(m => m.place && m.place.vertex === w) ? null :
        w + " is not a move" + (toMove(v).some(m => m.place && m.place.edge) ? ": moves are made on the edges' handles" : "") + (v.position.to_move ? " for " + SIDE[v.position.to_move] : "");
    },
    entryAt: (b, v, w) => toMove(v).find(m => m.place && m.place.vertex === w).index,
    reset(b) {
      const { st } = b;
      st.first = game.first();
      st.line = [];
      st.texts = [];
      // Back to choosing a start (the server picks a game's only one).
      st.start = "";
    },
    link(b, p) {
      const { st } = b;
      if (st.start !== "") p.set("s", st.start);
      if (st.line.length) p.set("m", st.line.join(","));
      if ($("lg-play").checked) p.set("play", game.you());
      if (!info.impartial && st.first !== "L") p.set("first", st.first);
    },
    readLink(q, problems) {
      const play = q.get("play"), first = q.get("first") || "L";
      const roles = info.impartial ? ["first", "second"] : ["L", "R"];
      if (play !== null && !roles.includes(play)) problems.push("play=" + play.slice(0, 20) + " (" + roles.join(" or ") + ")");
      if (!["L", "R"].includes(first)) problems.push("first=" + first.slice(0, 20) + " (L or R)");
      const on = roles.includes(play);
      $("lg-play").checked = on;
      if (info.impartial) $("lg-order").value = on ? play : "first";
      else {
        $("lg-side").value = on ? play : "L";
        const f = ["L", "R"].includes(first) ? first : "L";
        $("lg-order").value = f === $("lg-side").value ? "first" : "second";
      }
      const s = q.get("s") || "";
      if (s !== "" && !/^\d{1,4}$/.test(s)) { problems.push("s=" + s.slice(0, 20) + " (a start's number)"); return { start: "", moves: "" }; }
      return { start: s, moves: q.get("m") };
    },
    // The server checks the moves (their options are its to know).
    illegalAt: () => null,
    preset: p => ({ start: p.start === null || p.start === undefined ? "" : String(p.start), line: [] }),
    witnessLink: startLink,
    typed: () => ({ start: "", line: [] }),
    term: () => [null, info.title + " positions do not join sums here"],
    title: (st, v) => info.title + " " + st.code + (v && v.line.length ? ", " + v.line.length + " moves" : ""),
    treeMove: label => label,
    sumMove: m => m,
  };
  return game;
}

/** A game graph from a file: in the tree and sum routes' answers only. */
export const gamegraph = {
  name: "gamegraph",
  treeMove: label => "to " + label,
  sumMove: m => "moving to " + m,
};

/** The games on the board, by name (the `game` of links and presets). */
export const GAMES = { uvg, col, myopic };

/** Every game the tree and sum routes answer for, by name. */
export const TERM_GAMES = { uvg, col, myopic, gamegraph };

/** The game a link names when it names none. */
export const DEFAULT_GAME = uvg;

/**
 * The board link of a sweep's witness `w` ({board, graph6, start,
 * colouring}): `board` is the game the server names for the witness's
 * kind (a game of the graph-game layer, or uvg, col, myopic).
 */
export function witnessHref(w) {
  const q = new URLSearchParams();
  if (w.board !== DEFAULT_GAME.name) q.set("game", w.board);
  q.set("g", w.graph6);
  // A layered game's board is made in the page from the server's list;
  // its link, like UVG's, names the start.
  (GAMES[w.board] || { witnessLink: startLink }).witnessLink(q, w);
  return "/explore?" + q.toString();
}
