// gamesweep explore: one UVG start or move searched exactly past the page's
// budget, with a budget of its own, progress and a cancel button
// (/explore/api/uvg/search streams JSON lines; aborting the request stops
// the search on the server). `createSearch(budget, board)` sets the form up
// and returns the panel's hooks: `panel(view)` after a UVG position is
// drawn, `found(line)` for a value found here, `stop()` before another
// position is loaded. `budget` is the server's ({initial, max}, from the
// page's data); `board` gives the position shown (`st`) and draws it again
// (`redraw()`) when a value is found.
import { $, html, setHtml } from "./html.js";
import { nim } from "./api.js";

export function createSearch(budget, board) {
  const { st } = board;
  const found = new Map();   // "code|line" -> Grundy value found by a search
  let searching = null;      // the running search's AbortController
  const foundKey = line => st.code + "|" + line.join(",");

  function searched(line) {
    return found.get(foundKey(line));
  }

  function searchStop() {
    if (searching) searching.abort();
  }

  function searchPanel(v) {
    const box = $("search");
    box.hidden = !v.over_budget;
    if (!v.over_budget) return;
    $("over-budget").textContent = v.over_budget.replace(/\(`gamesweep solve uvg`.*$/, "") +
      "Winners, the matching and the solver's moves still follow the matching theorem; search one " +
      (v.token === null ? "start" : "move") + " exactly below.";
    const opts = v.token === null ? v.start_wins.map((_, w) => w) : v.moves.map(m => m.vertex);
    const keep = $("search-what").value;
    setHtml($("search-what"), html`${opts.map(w => html`<option value="${w}">${v.token === null ? "start " : "move to "}${w}</option>`)}`);
    if (opts.map(String).includes(keep)) $("search-what").value = keep;
    $("search-go").disabled = opts.length === 0 || searching !== null;
  }

  function searchStatus(text, state) {
    $("search-status").textContent = text;
    $("search").dataset.state = state;
  }

  async function searchRun(ev) {
    ev.preventDefault();
    if (searching) return;
    const w = Number($("search-what").value);
    const line = st.line.slice(0, st.at).concat([w]);
    const asked = $("search-budget").value.trim();
    const what = (line.length === 1 ? "start " : "move to ") + w;
    const ctl = new AbortController();
    searching = ctl;
    $("search-go").disabled = true;
    $("search-cancel").disabled = false;
    const bar = $("search-progress");
    bar.hidden = false;
    bar.value = 0;
    let nodes = 0;
    searchStatus("searching " + what + "…", "running");
    try {
      const r = await fetch("/explore/api/uvg/search?g=" + encodeURIComponent(st.code) + "&line=" + line.join(",") +
        "&budget=" + encodeURIComponent(asked), { signal: ctl.signal });
      if (!r.ok) {
        let msg = r.status + " " + r.statusText;
        try { msg = (await r.json()).error || msg; } catch { /* not JSON */ }
        throw new Error(msg);
      }
      const reader = r.body.getReader();
      const dec = new TextDecoder();
      let buf = "", last = null;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          const m = JSON.parse(buf.slice(0, i));
          buf = buf.slice(i + 1);
          if (m.waiting) searchStatus(what + ": waiting for a free worker slot…", "waiting");
          if (m.nodes !== undefined) {
            nodes = m.nodes;
            bar.value = Math.min(1, m.nodes / m.budget);
            searchStatus(what + ": " + m.nodes.toLocaleString("en") + " of " + m.budget.toLocaleString("en") +
              " positions · " + m.seconds.toFixed(1) + " s", "running");
          }
          if (m.answer || m.error) last = m;
        }
      }
      if (!last) throw new Error("the server ended the search without an answer");
      if (last.error) throw new Error(last.error);
      const a = last.answer;
      found.set(foundKey(a.line), a.value);
      bar.value = 1;
      const who = a.line.length === 1 ? (a.value !== 0 ? "the first player wins" : "the second player wins")
        : (a.value === 0 ? "a winning move" : "a losing move");
      searchStatus(what + ": Grundy value " + nim(a.value) + " (" + who + "), " + a.nodes.toLocaleString("en") +
        " positions", "done");
      $("search-done").dataset.line = a.line.join(",");
      $("search-done").dataset.value = a.value;
      board.redraw();
    } catch (e) {
      if (e.name === "AbortError") {
        searchStatus(what + ": cancelled after " + nodes.toLocaleString("en") + " positions", "cancelled");
      } else {
        searchStatus(what + ": " + e.message, "error");
      }
    } finally {
      if (searching === ctl) searching = null;
      $("search-cancel").disabled = true;
      $("search-go").disabled = false;
    }
  }

  const b = $("search-budget");
  b.value = String(budget.initial);
  b.max = String(budget.max);
  $("search-form").addEventListener("submit", searchRun);
  $("search-cancel").addEventListener("click", searchStop);
  return { found: searched, panel: searchPanel, stop: searchStop };
}
