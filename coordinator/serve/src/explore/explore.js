// gamesweep explore: the boards (the page's one module; it imports the
// rest). Asks /explore/api/* for every position and draws the answer as
// SVG; all values come from the server's exact solvers.
//
// A game (games.js: one object per game) is a start position and a line of
// moves; `at` of them are shown (the move list steps through it). UVG: the
// line is the token's path, the start first. Col / Myopic Col: `start` is
// the start colouring, the line the vertices coloured in turn, `first` the
// side ("L" Blue, "R" Red) that colours first. Playing against the solver
// the person has one role (UVG: first or second player, the first one
// placing the token; Col: a side) and the solver the other; after each of
// the person's moves the solver answers with the move the server computed
// (the quickest win, else the longest resistance).
//
// The board's state lives in `createBoard`'s closure and is handed to the
// panels (search, analysis, game graph) as the board object; nothing is
// global. The server's settings come as JSON in the page
// (`#explore-data`), never written into this code.
import { $, html, setHtml } from "./html.js";
import { getJson, pageData } from "./api.js";
import { errorBoard } from "./draw.js";
import { DEFAULT_GAME, GAMES, layeredGame } from "./games.js";
import { createSearch } from "./search.js";
import { createAnalysis } from "./analysis.js";
import { initGameGraph } from "./gamegraph.js";

function visitId() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, x => x.toString(16).padStart(2, "0")).join("");
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

// Parse a list of vertices from a link: numbers, or null.
function vertexList(s) {
  if (s === null || s === undefined || s.trim() === "") return [];
  const xs = s.split(",").map(x => x.trim());
  return xs.every(x => /^\d{1,3}$/.test(x)) ? xs.map(Number) : null;
}

// Nothing of an earlier position stays on the panel once a request failed.
function clearPanel() {
  for (const id of ["value", "winner", "nu", "nu-s", "deg3", "reply", "path", "col-value", "col-outcome", "col-colouring", "col-table", "col-reply",
    "lg-value", "lg-outcome", "lg-mover", "lg-reply", "lg-start", "lg-hint"]) {
    const e = $(id);
    e.textContent = "—";
    delete e.dataset.value;
  }
  $("moves").querySelector("tbody").replaceChildren();
  $("col-moves").querySelector("tbody").replaceChildren();
  $("lg-moves").replaceChildren();
  $("hint").textContent = "";
  $("method").textContent = "";
}

/** The board: its state, and the hooks the games and panels call. */
export function createBoard(data) {
  const st = {
    game: DEFAULT_GAME, // the game played (an object of games.js)
    code: "",
    start: "",         // Col: the start colouring (. L R per vertex); UVG: ""
    line: [],          // the moves (UVG: the token's path, the start first)
    first: "L",        // Col: the side that colours first
    at: 0,             // moves of the line shown
    colouring: "",     // Col: the colouring shown
    history: [],       // Col: start positions before each paint (undo)
    texts: [],         // a layered game: the words for the moves of the line
    view: null,        // the last answer shown
    presets: [],
    results: [],
    seq: 0,
    sid: visitId(),
    replay: 0,         // the replay running (0: none)
  };
  // The games on the board: games.js's, and one object per game of the
  // graph-game layer the server names (added by `begin`).
  const games = { ...GAMES };

  function done(ok) {
    st.seq += 1;
    document.body.dataset.seq = String(st.seq);
    document.body.dataset.state = ok ? "ready" : "error";
  }

  function setGame(g) {
    st.game = g;
    $("game").value = g.name;
    document.body.className = (g.bodyClass || "game-" + g.name) + ($("hide").checked ? " hide-values" : "");
  }

  // ---- the line: whose move, who plays it ----

  const lineLength = () => st.line.length;
  const playing = () => $(st.game.playBox).checked;
  // Who plays entry i: "you", "solver", or null (nobody playing the solver).
  function owner(i) {
    if (!playing()) return null;
    return st.game.side(st, i) === st.game.you() ? "you" : "solver";
  }
  const ended = () => !!$("message").dataset.outcome;

  // The page's address: the board, the line, how much of it is shown and
  // the play settings; opening it restores all of them.
  function linkParams() {
    const p = new URLSearchParams();
    if (st.game !== DEFAULT_GAME) p.set("game", st.game.name);
    p.set("g", st.code);
    st.game.link(board, p);
    if (st.at < lineLength()) p.set("at", String(st.at));
    if ($("hide").checked) p.set("hide", "1");
    return p;
  }
  function syncUrl() {
    history.replaceState(null, "", "/explore?" + linkParams().toString());
    $("link").value = location.href;
  }

  // ---- the move list ----

  function renderMoveList() {
    const n = lineLength();
    const items = [];
    for (let i = 0; i < n; i++) {
      const o = owner(i);
      const who = o === "you" ? "you" : o === "solver" ? "solver" : "";
      items.push(html`<li class="mv${who ? " " + who : ""}${i === st.at - 1 ? " current" : ""}${i >= st.at ? " ahead" : ""}" data-i="${i}" data-v="${st.line[i]}" data-side="${st.game.side(st, i)}" data-who="${who}" tabindex="0">${
        st.game.moveText(st, i)}${who && html` <span class="who">${who}</span>`}</li>`);
    }
    setHtml($("movelist"), items.length ? html`${items}` : html`<li class="muted empty">no moves yet</li>`);
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
    // The end is announced in the message box: nobody is to move.
    const t = st.game.end(board, v) ? (playing() ? "Game over." : "") : st.game.turn(board, v);
    $("turn").textContent = t;
    $("turn").hidden = !t;
    document.body.dataset.turn = playing() ? (owner(st.at) || "") : "";
  }

  // ---- loading ----

  async function load() {
    board.search.stop();
    document.body.dataset.state = "busy";
    document.body.classList.toggle("playing", playing());
    document.body.classList.toggle("hide-values", $("hide").checked);
    syncUrl();
    try {
      const v = await st.game.view(board);
      st.game.render(board, v);
      st.view = v;
      showError("");
      const end = st.game.end(board, v);
      showMessage(end && end[0], end && end[1]);
      renderTurn(v);
      renderMoveList();
      board.analysis.position();
      done(true);
      return true;
    } catch (e) {
      // Nothing of the position shown before stays: the board says why
      // there is none, the panel is empty.
      st.view = null;
      showError(e.message);
      showMessage("");
      clearPanel();
      setHtml($("board"), errorBoard(e.message));
      renderMoveList();
      board.analysis.position();
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
    st.line = st.line.slice(0, st.at).concat([w]);
    st.at += 1;
    if (!(await load())) {
      await revert(() => { st.at -= 1; st.line.pop(); });
      return false;
    }
    return true;
  }

  // The solver's move, when it is its turn and it has one; or null.
  function solverMove() {
    const v = st.view;
    if (!v || !playing() || owner(st.at) !== "solver") return null;
    return st.game.solverMove(v);
  }

  // The solver's moves until it is the person's turn (or the game is over):
  // UVG, moving first, it puts the token down and then moves.
  async function solverMoves() {
    for (let k = 0; k < 2; k++) {
      const w = solverMove();
      if (w === null) return;
      if (!(await push(w))) return;
    }
  }

  async function clickVertex(w) {
    const v = st.view;
    if (!v || document.body.dataset.state === "busy") return;
    stopReplay();
    notice("");
    // A game that picks its start by a click (before anyone moves).
    if (st.game.pick && st.game.pick(board, v, w)) return;
    if (playing() && owner(st.at) === "solver") {
      notice("It is the solver's move: press “Solver plays”, or step through the moves.");
      return;
    }
    if (st.game.setUp && !playing()) {
      // Setting up: the colouring painted becomes the start, the line goes.
      const start = st.game.paint(st, w, document.querySelector('input[name="paint"]:checked').value);
      if (start === null) return;
      st.history.push([st.start, st.line, st.at]);
      st.start = start;
      st.line = [];
      st.at = 0;
      if (!(await load())) {
        // An illegal colouring: the error stays shown, the board as it was.
        await revert(() => { [st.start, st.line, st.at] = st.history.pop(); });
      }
      return;
    }
    const why = st.game.refuse(board, v, w);
    if (why) { notice(why); return; }
    if (!(await push(st.game.entryAt ? st.game.entryAt(board, v, w) : w))) return;
    await solverMoves();
  }

  // A move chosen by its entry of the line (an edge's handle, a row of a
  // layered game's table).
  async function clickOption(i) {
    if (!st.view || document.body.dataset.state === "busy") return;
    stopReplay();
    notice("");
    if (playing() && owner(st.at) === "solver") {
      notice("It is the solver's move: press “Solver plays”, or step through the moves.");
      return;
    }
    if (ended()) { notice("The game is over: step back, or press New game."); return; }
    if (!(await push(i))) return;
    await solverMoves();
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
    if (!st.game.setUp || st.line.length || playing()) {
      if (!st.at) return;
      st.at = playing() ? backToYou(st.at) : st.at - 1;
      st.line = st.line.slice(0, st.at);
    } else {
      // Setting up: the paint before.
      if (!st.history.length) return;
      [st.start, st.line, st.at] = st.history.pop();
    }
    await load();
  }

  // A new game: `change` sets the state up; the solver moves if it is its turn.
  async function restart(change) {
    stopReplay();
    notice("");
    change(st);
    if (await load()) await solverMoves();
  }

  // A new game from the start position (UVG: no token; Col: the start
  // colouring; set up, Reset clears it).
  function reset() {
    return restart(() => {
      st.game.reset(board);
      st.at = 0;
    });
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
    if (solverMove() === null) { notice("The solver has no move: the game is over."); return; }
    await solverMoves();
  }

  async function copyLink() {
    syncUrl();
    try {
      await navigator.clipboard.writeText(location.href);
      notice("Link copied.");
    } catch {
      $("link").select();
      notice("Select the link below and copy it (the browser did not allow copying).");
    }
  }

  // Open a board of `game`: its start position and line, `at` of the line
  // shown (all of it when not given).
  function open(game, code, { start, line }, at) {
    stopReplay();
    notice("");
    setGame(game);
    st.code = code;
    $("code").value = code;
    st.view = null;
    st.history = [];
    st.start = start;
    st.line = line;
    st.first = game.first();
    $("colouring").value = start;
    st.at = at === undefined || at === null ? lineLength() : at;
    return load();
  }
  // Open the position a link names. Whatever is wrong with it is said (the
  // board shows as much of it as is right), never a blank page.
  async function openLink(q) {
    const problems = [];
    const name = q.get("game") || DEFAULT_GAME.name;
    let game = Object.hasOwn(games, name) ? games[name] : null;
    if (!game) { problems.push("unknown game “" + name.slice(0, 20) + "” (" + Object.keys(games).join(", ").replace(/, ([\w-]+)$/, " or $1") + ")"); game = DEFAULT_GAME; }
    $("hide").checked = q.get("hide") === "1";
    const { start, moves } = game.readLink(q, problems);
    let line = vertexList(moves);
    if (line === null) { problems.push("the moves “" + moves.slice(0, 40) + "” are not a list of vertices"); line = []; }
    const atText = q.get("at");
    let at = line.length;
    if (atText !== null) {
      if (/^\d{1,4}$/.test(atText) && Number(atText) <= line.length) at = Number(atText);
      else problems.push("at=" + atText.slice(0, 20) + " (0.." + line.length + ")");
    }
    setGame(game);
    // The start position first: its drawing checks the moves.
    const ok = await open(game, q.get("g"), { start, line: [] }, 0);
    if (ok && line.length) {
      const d = st.view.drawing;
      let good = 0;
      for (; good < line.length; good++) {
        const why = game.illegalAt(st, d, line, good);
        if (why) { problems.push("move " + (good + 1) + " of the link: " + why + "; the moves before it are shown"); break; }
      }
      st.line = line.slice(0, good);
      st.at = Math.min(at, st.line.length);
      await load();
    }
    if (problems.length) notice("This link could not be followed whole: " + problems.join("; ") + ".");
  }

  const board = {
    st, playing, owner, ended, load, reset, restart,
    redraw: () => { if (st.view) st.game.render(board, st.view); },
  };
  board.search = createSearch(data.search_budget, board);
  board.analysis = createAnalysis(board);

  // ---- the controls ----

  $("board").addEventListener("click", e => {
    const o = e.target.closest("[data-option]");
    if (o) { clickOption(Number(o.dataset.option)); return; }
    const g = e.target.closest("g.v");
    if (g) clickVertex(Number(g.dataset.v));
  });
  $("panel").addEventListener("click", e => {
    const o = e.target.closest("tr[data-option]");
    if (o) { clickOption(Number(o.dataset.option)); return; }
    const s = e.target.closest("tr[data-start]");
    if (s && st.game.pickStart && document.body.dataset.state !== "busy") st.game.pickStart(board, Number(s.dataset.start));
  });
  $("entry").addEventListener("submit", e => {
    e.preventDefault();
    // A board typed by hand: no preset or result is chosen, and no note of one stays.
    $("preset").value = "";
    $("results").value = "";
    $("note").textContent = "";
    const game = games[$("game").value];
    open(game, $("code").value.trim(), game.typed());
  });
  $("game").addEventListener("change", () => setGame(games[$("game").value]));
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
  // Each game's own controls, while that game is shown.
  function wire(game) {
    for (const [id, handler] of Object.entries(game.controls)) {
      $(id).addEventListener("change", () => { if (st.game === game) handler(board); });
    }
  }
  Object.values(games).forEach(wire);
  $("hide").addEventListener("change", () => { setGame(st.game); syncUrl(); });
  $("preset").addEventListener("change", () => {
    const p = st.presets[Number($("preset").value)];
    if (!p) return;
    $("results").value = "";
    $("note").textContent = p.name + ": " + p.note;
    const game = games[p.game];
    open(game, p.code, game.preset(p));
  });
  $("results").addEventListener("change", () => {
    const r = st.results[Number($("results").value)];
    if (!r) return;
    $("preset").value = "";
    $("note").textContent = (r.counterexample ? "counterexample " : "") + r.caption + ": " + r.code + (r.start !== null ? " start " + r.start : "");
    // The game the server names for the results' kind.
    const game = games[r.board];
    if (!game) { $("note").textContent = "no board plays " + r.board; return; }
    open(game, r.code, game.preset({ start: r.start, colouring: r.colouring || "" }));
  });

  // The presets, then the position the address names (the Petersen graph
  // when it names none).
  async function begin() {
    try {
      const p = await getJson("/explore/api/presets");
      // The games of the graph-game layer: one object each, made here.
      for (const info of p.layered) {
        games[info.name] = layeredGame(info);
        wire(games[info.name]);
      }
      setHtml($("layered-games"), html`${p.layered.map(x => html`<option value="${x.name}">${x.title}${x.directed ? " (digraphs)" : ""}</option>`)}`);
      initGameGraph(p, board.analysis.addTerm);
      st.presets = p.presets;
      st.results = p.results;
      setHtml($("preset"), html`<option value="">—</option>${p.presets.map((x, i) => html`<option value="${i}" data-id="${x.id}">${x.name}</option>`)}`);
      if (p.results.length) {
        $("results-label").hidden = false;
        setHtml($("results"), html`<option value="">— ${p.results_source || ""} —</option>${p.results.map((x, i) =>
          html`<option value="${i}">${x.counterexample ? "counterexample " : ""}${x.caption} ${x.code}</option>`)}`);
      }
    } catch (e) {
      showError("cannot read the presets: " + e.message);
    }
    const q = new URLSearchParams(location.search);
    if (q.get("g")) {
      await openLink(q);
    } else {
      const i = st.presets.findIndex(x => x.id === "petersen");
      if (i >= 0) {
        const p = st.presets[i], game = games[p.game];
        $("preset").value = String(i);
        $("note").textContent = p.name + ": " + p.note;
        await open(game, p.code, game.typed());
      }
      else done(false);
      if (q.toString()) notice("This link names no board (g=GRAPH6 is missing): showing the Petersen graph.");
    }
  }

  board.begin = begin;
  return board;
}

createBoard(pageData("explore-data")).begin();
