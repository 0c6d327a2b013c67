// gamesweep explore: the analysis panel, CGSuite-style. Two parts, both
// about the position shown on the board:
//
// - the game tree: the position with its canonical value and outcome, and
//   its options (Blue's and Red's apart for Col and Myopic Col, the moves
//   once for UVG), each with its value and outcome; a button opens an
//   option's own options (/explore/api/tree at depth 1) and closes them
//   again. The options that win for the player making them are marked, and
//   the simplest winning one (the sum route's choice for a single summand,
//   which also gives a Col position's components);
// - the sum: positions added one by one (any of the three games from the
//   board, or a loop-free game graph's position from the game-graph panel
//   through `addTerm`), their values, the sum's canonical value and outcome
//   and each player's simplest winning move (/explore/api/sum, with the
//   game files' texts its terms name).
//
// `createAnalysis(board)` sets the panel up; `board.st` is the position
// shown (its game, code and view). It shows only what the two routes
// answer (`solve tree --json`, `solve sum --json`).
import { $, html, setFact, setHtml } from "./html.js";
import { postJson as post } from "./api.js";
import { TERM_GAMES } from "./games.js";

export function createAnalysis(board) {
  const { st } = board;
  const an = {
    gen: 0,         // the tree shown: answers for an older one are dropped
    pending: 0,     // tree requests in flight
    answered: 0,    // tree requests answered
    summands: [],   // the sum: [{term, name, files}] (files: {NAME: TEXT} or null)
    sumGen: 0,
    sumAnswered: 0,
    sumBusy: false, // the latest sum asked is not answered yet
  };
  const WORDS = { L: "Blue (Left) wins", R: "Red (Right) wins", N: "the first player wins", P: "the second player wins" };

  // Tests (and people reading the page's state) see how many requests are
  // in flight and answered.
  function mark() {
    const b = document.body.dataset;
    b.treePending = String(an.pending);
    b.treeAnswered = String(an.answered);
    b.sumAnswered = String(an.sumAnswered);
    b.sumBusy = an.sumBusy ? "1" : "0";
  }

  // The position shown as a term of `solve sum` ([term, null]), or why
  // there is none ([null, why]).
  function positionTerm() {
    const v = st.view;
    if (!v) return [null, "no position is shown"];
    return st.game.term(st, v);
  }

  // A short name of the position shown, for the list of summands.
  function positionName() {
    return st.game.title(st, st.view);
  }

  // ---- the game tree ----

  // Does moving to a position of this outcome win for the mover? Left
  // (Blue) wins by moving to a position Right cannot win moving first
  // (L or P), Right to R or P; in an impartial game, to P.
  function wins(side, outcome) {
    if (side === "L") return outcome === "L" || outcome === "P";
    if (side === "R") return outcome === "R" || outcome === "P";
    return outcome === "P";
  }

  function moveText(side, game, label) {
    if (side === null) return "this position";
    const g = TERM_GAMES[game];
    return g ? g.treeMove(label, side) : label;
  }

  // One node: a button with the move, the value and the outcome (and the
  // marks), then its options once opened. `side`: who moved here ("L",
  // "R", "" for an impartial move, null at the root).
  function nodeHtml(n, side, game, level) {
    const win = side !== null && wins(side, n.outcome);
    const leaf = n.option_count === 0;
    return html`<li class="node${win ? " win" : ""}" data-level="${level}" data-term="${n.term}" data-side="${side === null ? "" : side}" data-move="${n.move === undefined ? "" : n.move}" data-count="${n.option_count}"><button type="button" class="t-head" aria-expanded="false"${
      leaf ? html` disabled title="no options: the player to move loses"` : html` title="${n.term}"`}><span class="t-mv">${moveText(side, game, n.move)}</span> <span class="t-val">${n.value}</span> <abbr class="t-oc" title="${WORDS[n.outcome] || n.outcome}">${n.outcome}</abbr>${
      win && html` <span class="t-mark">wins</span>`}${leaf && html` <span class="t-leaf muted">no options</span>`}</button></li>`;
  }

  // The options of `n` (a tree node of depth ≥ 1) as lists under `li`,
  // marking the simplest winning move of each side (`s`: the sum route's
  // answer for the node alone).
  function kidsHtml(n, s, game, level) {
    const parts = [];
    const comps = s && s.summands[0] && s.summands[0].components || [];
    if (comps.length > 1) {
      // Each component's value, then what they make (as `solve sum`
      // says it): "{0} = 1 + {2,3,4,5} = -3/4" read as one equation.
      parts.push(html`<p class="t-comp muted">components: ${comps.map(c => "{" + c.vertices.join(",") + "}: " + c.value).join(", ")} (the value is their sum)</p>`);
    }
    const list = (side, nodes, head) => {
      const items = nodes.map(c => nodeHtml(c, side, game, level + 1));
      return html`<div class="t-side">${head}</div><ul class="t-list" data-side="${side}">${
        items.length ? items : html`<li class="muted t-none">none</li>`}</ul>`;
    };
    if (n.moves) {
      parts.push(list("", n.moves, "moves (either player's)"));
    } else {
      parts.push(list("L", n.left || [], "Blue (Left)'s options"));
      parts.push(list("R", n.right || [], "Red (Right)'s options"));
    }
    return html`${parts}`;
  }

  // Mark the simplest winning move of each side in the lists under `kids`.
  function markSimplest(kids, s) {
    const markOne = (side, m) => {
      if (!m) return;
      const li = Array.from(kids.querySelectorAll(':scope > ul[data-side="' + side + '"] > li.node'))
        .find(x => x.dataset.move === m.move);
      if (!li) return;
      li.classList.add("simplest");
      const t = li.querySelector(":scope > button .t-mark");
      if (t) t.textContent = "simplest win";
    };
    if (kids.querySelector(':scope > ul[data-side=""]')) markOne("", s.left_wins_by);
    else { markOne("L", s.left_wins_by); markOne("R", s.right_wins_by); }
  }

  // Open or close the options of `li`; the first time, ask for them.
  async function toggle(li) {
    const b = li.querySelector(":scope > button");
    const kids = li.querySelector(":scope > .t-kids");
    if (kids && !li.dataset.failed) {
      const open = b.getAttribute("aria-expanded") !== "true";
      b.setAttribute("aria-expanded", String(open));
      kids.hidden = !open;
      return;
    }
    if (kids) kids.remove();
    delete li.dataset.failed;
    await expand(li);
  }

  // A position's tree to depth 1 and the sum route's answer for it alone
  // (its simplest winning moves, a Col position's components).
  function askLevel(term) {
    return Promise.all([
      post("/explore/api/tree", { term: term, depth: 1 }),
      post("/explore/api/sum", { terms: [term] }),
    ]);
  }

  // Show the options of `li` from `t` and `s` (level's answer), or `err`.
  function attach(li, t, s, err) {
    const kids = document.createElement("div");
    kids.className = "t-kids";
    if (err) {
      setHtml(kids, html`<div class="error t-error" role="alert">${err.message}</div>`);
      li.dataset.failed = "1";
    } else {
      setHtml(kids, kidsHtml(t.root, s, t.game, Number(li.dataset.level)));
      markSimplest(kids, s);
    }
    li.appendChild(kids);
    li.querySelector(":scope > button").setAttribute("aria-expanded", "true");
  }

  // Ask for the options of `li` and show them (unless another tree is
  // shown by then).
  async function expand(li) {
    const gen = an.gen;
    const b = li.querySelector(":scope > button");
    b.setAttribute("aria-busy", "true");
    an.pending += 1;
    mark();
    try {
      const [t, s] = await askLevel(li.dataset.term);
      if (gen === an.gen) attach(li, t, s, null);
    } catch (e) {
      if (gen === an.gen) attach(li, null, null, e);
    } finally {
      b.removeAttribute("aria-busy");
      an.pending -= 1;
      an.answered += 1;
      mark();
    }
  }

  // The tree of the position shown, its root opened (when the panel is open).
  async function showTree() {
    an.gen += 1;
    const gen = an.gen;
    const box = $("tree");
    if (!$("tree-box").open) { box.replaceChildren(); return; }
    const [term, why] = positionTerm();
    if (!term) { setHtml(box, html`<p class="muted">No game tree: ${why}.</p>`); return; }
    setHtml(box, html`<p class="muted">computing…</p>`);
    an.pending += 1;
    mark();
    try {
      const [t, s] = await askLevel(term);
      if (gen !== an.gen) return;
      setHtml(box, html`<ul class="t-list t-root">${nodeHtml(t.root, null, t.game, 0)}</ul>`);
      if (t.root.option_count > 0) attach(box.querySelector("li.node"), t, s, null);
    } catch (e) {
      if (gen === an.gen) setHtml(box, html`<div class="error t-error" role="alert">${e.message}</div>`);
    } finally {
      an.pending -= 1;
      an.answered += 1;
      mark();
    }
  }

  // ---- the sum ----

  function sumMove(s, m) {
    if (!m) return "no winning move";
    const g = TERM_GAMES[s.summands[m.summand].game];
    const what = g ? g.sumMove(m.move) : "moving to " + m.move;
    return "wins by " + what + " in summand " + (m.summand + 1) + ", leaving " + m.value +
      " (" + m.winning_moves + " winning move" + (m.winning_moves === 1 ? "" : "s") + ")";
  }

  // The summands and the sum, from the route's answer `s` (null: none yet
  // or an error).
  function renderSum(s) {
    const items = an.summands.map((x, i) => {
      const r = s && s.summands[i];
      const comps = r && r.components && r.components.length > 1 &&
        html`<span class="t-comp muted"> (components: ${r.components.map(c => "{" + c.vertices.join(",") + "}: " + c.value).join(", ")})</span>`;
      return html`<li data-term="${x.term}"><span class="s-name">${x.name}</span>: <span class="s-val">${r ? r.value : "—"}</span> ${
        r && html`<abbr class="s-oc" title="${WORDS[r.outcome] || r.outcome}">${r.outcome}</abbr>`}${comps} <button type="button" class="s-remove" data-i="${i}" aria-label="remove summand ${i + 1}">Remove</button></li>`;
    });
    setHtml($("sum-list"), items.length ? html`${items}` : html`<li class="muted">no summands yet: show a position and add it</li>`);
    setFact("sum-value", s ? s.value : "—", s ? s.value : null);
    setFact("sum-outcome", s ? s.outcome + ": " + s.winner : "—", s ? s.outcome : null);
    setFact("sum-kind", s ? (s.cold ? "a number, or a number plus *" : "neither a number nor a number plus *") : "—");
    setFact("sum-left", s ? sumMove(s, s.left_wins_by) : "—", s && s.left_wins_by ? s.left_wins_by.summand + ":" + s.left_wins_by.move : null);
    setFact("sum-right", s ? sumMove(s, s.right_wins_by) : "—", s && s.right_wins_by ? s.right_wins_by.summand + ":" + s.right_wins_by.move : null);
  }

  // The game files the summands' `gamegraph:` terms name, as the sum
  // route's `files` (null: none).
  function sumFiles() {
    const files = {};
    let any = false;
    for (const x of an.summands) for (const k in x.files || {}) { files[k] = x.files[k]; any = true; }
    return any ? files : null;
  }

  // Ask for the sum of the summands and show it; resolves to the error's
  // message, or null once the sum is shown (or a newer one was asked).
  async function computeSum() {
    an.sumGen += 1;
    const gen = an.sumGen;
    const err = $("sum-error");
    err.hidden = true;
    if (!an.summands.length) {
      renderSum(null);
      an.sumAnswered += 1;
      mark();
      return null;
    }
    renderSum(null);
    an.sumBusy = true;
    mark();
    try {
      const body = { terms: an.summands.map(x => x.term) };
      const files = sumFiles();
      if (files) body.files = files;
      const s = await post("/explore/api/sum", body);
      if (gen === an.sumGen) renderSum(s);
      return null;
    } catch (e) {
      if (gen === an.sumGen) { err.textContent = e.message; err.hidden = false; }
      return e.message;
    } finally {
      if (gen === an.sumGen) { an.sumBusy = false; an.sumAnswered += 1; mark(); }
    }
  }

  function addPosition() {
    const [term, why] = positionTerm();
    const err = $("sum-error");
    if (!term) { err.textContent = "Nothing to add: " + why + "."; err.hidden = false; return; }
    an.summands.push({ term: term, name: positionName(), files: null });
    return computeSum();
  }

  // Add a position given by its term (e.g. a game graph's,
  // `gamegraph:NAME#GAME#POS`), named `label` in the list, with the game
  // files it names (`{NAME: TEXT}`); resolves as computeSum.
  function addTerm(t) {
    an.summands.push({ term: t.term, name: t.label || t.term, files: t.files || null });
    return computeSum();
  }

  // ---- set up, and the hooks for the board and the game-graph panel ----

  $("tree-box").addEventListener("toggle", showTree);
  $("tree").addEventListener("click", e => {
    const b = e.target.closest("button.t-head");
    if (b && !b.disabled && b.getAttribute("aria-busy") !== "true") toggle(b.parentNode);
  });
  $("sum-add").addEventListener("click", addPosition);
  $("sum-clear").addEventListener("click", () => { an.summands = []; computeSum(); });
  $("sum-list").addEventListener("click", e => {
    const b = e.target.closest("button.s-remove");
    if (!b) return;
    an.summands.splice(Number(b.dataset.i), 1);
    computeSum();
  });
  renderSum(null);
  mark();

  // A new position is shown (or none): its tree, if the panel is open; can
  // it be added to the sum?
  function position() {
    const [term, why] = positionTerm();
    const add = $("sum-add");
    add.disabled = !term;
    add.title = term ? "add " + term : why;
    showTree();
  }

  return { position, addTerm };
}
