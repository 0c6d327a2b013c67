// The gamesweep dashboard: polls /api/status and /api/history every 2 s,
// and a sweep's witness pictures when its done shards change. Read-only.
// The rate, ETA and share done are the engine's (status JSON), as `status`
// and `run`'s bar show them. When the coordinator stops answering (a `run`
// that ended, a coordinator stopped), the page keeps the last numbers it
// read and says so, rather than an error over numbers that look live.
// An ES module: its state is the object `createDashboard` makes, HTML comes
// from the boards' `html` template tag (it escapes every value).
import { html, setHtml, trusted } from "/explore/html.js";
import { witnessHref } from "/explore/games.js";

const POLL_MS = 2000;
function num(n) { return Number(n).toLocaleString("en-US"); }
function rate(r) {
  if (r === null || r === undefined || !isFinite(r)) return "–";
  if (r >= 1e6) return (r / 1e6).toFixed(2) + " M/s";
  if (r >= 1e3) return (r / 1e3).toFixed(1) + " k/s";
  return r.toFixed(0) + " /s";
}
function duration(s) {
  if (s === null || s === undefined) return "–";
  s = Math.round(s);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return (h ? h + " h " : "") + (h || m ? m + " min " : "") + sec + " s";
}
// While only a sample is served, progress and ETA are the sample's.
function sampleOnly(s) { return !!(s.sample && s.sample.limited); }
// "100 %" only for a sweep that is done (or a sample run to its end):
// every shard done but verifications open is not done yet.
function percent(s) {
  const f = s.fraction_done === undefined ? 0 : s.fraction_done;
  if (s.state === "done") return "100 %";
  if (f >= 1 && sampleOnly(s)) return "100 % of the sample";
  if (f >= 1) return "every shard; waiting for verifications";
  return (100 * f).toFixed(1) + " %" + (sampleOnly(s) ? " of the sample" : "");
}
// The one estimate of the positions, as `status` prints it: the target
// progress is measured against (the plan's estimate corrected by the done
// shards; the sample's while only the sample is served). A done sweep has
// no estimate: its positions are counted. The estimate shown is the one
// the share done is of, never the plan's beside a share of the projection.
function estimate(s) {
  const t = s.positions_target;
  let text = "~" + num(t) + (sampleOnly(s) ? " in the sample" : "");
  // Every shard done (waiting for verifications): counted, not estimated.
  // Passed before the end (a sample run to its end is its target exactly).
  if (s.shards_total > 0 && s.shards_done === s.shards_total) {
    text = num(s.positions_done) + ", counted: every shard is done";
  } else if (s.positions_done >= t && t > 0 && s.state !== "sampled") {
    text = "~" + num(t) + (s.state === "running" ? " reached; the last shards are finishing" : " passed: the projection was low");
  }
  const how = s.shards_done > 0 ? "projected from " + num(s.shards_done) + " done shards; the plan estimated " + num(s.positions_estimate)
    : "the plan's estimate";
  return html`<dt>estimate</dt><dd class="positions-target" data-value="${t}" title="${how}">${text}</dd>`;
}
function bytes(b) {
  if (b >= 1 << 30) return (b / (1 << 30)).toFixed(1) + " GiB";
  if (b >= 1 << 20) return (b / (1 << 20)).toFixed(1) + " MiB";
  return (b / 1024).toFixed(0) + " KiB";
}

async function get(path) {
  const r = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  if (r.status === 401) { window.location.assign("/login"); throw new Error("not logged in"); }
  if (!r.ok) throw new Error(path + ": HTTP " + r.status);
  return r.json();
}

// The rate chart's span.
const CHART_SPAN_MS = 10 * 60 * 1000;

// The sweep's rate over the last 10 minutes, with axes: the rate between
// consecutive history samples (every 10 s, on the server's clock), and the
// latest from the last sample to now (the status just read, at the
// history's `now_ms`). Before the first sample it is the engine's rate
// (status JSON), so a point is drawn from the first read.
function ratePoints(s, samples, now) {
  const pts = [];
  samples = (samples || []).filter(x => x[0] >= now - CHART_SPAN_MS - 10000);
  for (let i = 1; i < samples.length; i++) {
    const dt = (samples[i][0] - samples[i - 1][0]) / 1000;
    if (dt > 0) pts.push([samples[i][0], Math.max(0, samples[i][1] - samples[i - 1][1]) / dt]);
  }
  const last = samples[samples.length - 1];
  const live = s.state === "running" || s.state === "paused";
  if (last && now - last[0] >= 1000 && (live || !pts.length)) {
    pts.push([now, Math.max(0, s.positions_done - last[1]) * 1000 / (now - last[0])]);
  } else if (!pts.length) {
    // No sample yet, or only one a moment ago: the engine's own rate.
    pts.push([now, isFinite(s.rate) ? Math.max(0, s.rate) : 0]);
  }
  return pts.filter(p => p[0] >= now - CHART_SPAN_MS);
}

function chart(s, samples, now) {
  const W = 320, H = 120, L = 52, R = 8, T = 20, B = 22; // plot inside the margins
  const pts = ratePoints(s, samples, now);
  const max = Math.max(1, ...pts.map(p => p[1]));
  const x = t => L + (W - L - R) * (t - (now - CHART_SPAN_MS)) / CHART_SPAN_MS;
  const y = r => H - B - (H - T - B) * r / max;
  const xy = pts.map(p => x(p[0]).toFixed(1) + "," + y(p[1]).toFixed(1));
  const label = "positions/s, last 10 min";
  const latest = pts.length ? pts[pts.length - 1][1] : 0;
  const ticks = [[-10, "−10 min"], [-5, "−5 min"], [0, "now"]].map(([m, t]) =>
    html`<text x="${x(now + m * 60000).toFixed(1)}" y="${H - 6}" text-anchor="${m === -10 ? "start" : m === 0 ? "end" : "middle"}">${t}</text>`);
  const [px, py] = xy.length ? xy[xy.length - 1].split(",") : [];
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${label + ": latest " + rate(latest) + ", highest " + rate(max)}"><text class="chart-label" x="${L}" y="13" font-size="11" fill="#333">${label}</text><g class="axes" stroke="#555" stroke-width="1"><line class="y-axis" x1="${L}" y1="${T}" x2="${L}" y2="${H - B}"/><line class="x-axis" x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}"/></g><line stroke="#e0e0e0" x1="${L}" y1="${T}" x2="${W - R}" y2="${T}"/><g class="ticks" font-size="10" fill="#333"><text x="${L - 4}" y="${T + 4}" text-anchor="end">${rate(max).replace(" /s", "").replace("/s", "")}</text><text x="${L - 4}" y="${H - B + 4}" text-anchor="end">0</text>${ticks}</g>${
    pts.length > 1 && html`<polyline class="rate-line" fill="none" stroke="#1565c0" stroke-width="1.5" points="${xy.join(" ")}"/>`}${
    pts.length > 0 && html`<circle class="rate-point" r="2.5" fill="#1565c0" cx="${px}" cy="${py}" data-rate="${latest}"/>`}</svg>`;
}

// A sampled sweep's share, "1 %" for 10,000 ppm.
function samplePercent(ppm) {
  return String(Number((ppm / 1e4).toPrecision(3))) + " %";
}

function bar(s) {
  const t = Math.max(1, s.shards_total);
  const seg = (cls, n) => n > 0 && html`<span class="${cls}" style="width:${100 * n / t}%" title="${cls}: ${n}"></span>`;
  return html`<div class="bar">${seg("done", s.shards_done)}${seg("leased", s.shards_leased)}${seg("pending", s.shards_pending)}${seg("failed", s.shards_failed)}</div>`;
}

function sweepHtml(dash, s) {
  const id = s.sweep_id;
  const params = Object.entries(s.params).map(([k, v]) => "--" + k.replace(/_/g, "-") + " " + v).join(" ");
  const fails = s.failures.length > 0 && html`<h3>Failed shards</h3><div class="scroll"><table class="failures"><thead><tr><th>shard</th><th>failures</th><th>worker</th><th>error</th></tr></thead><tbody>${
    s.failures.map(f => html`<tr><td>${f.index}</td><td>${f.count}</td><td>${f.worker_id}</td><td>${f.error}</td></tr>`)}</tbody></table></div>`;
  const cx = Object.entries(s.counterexamples).map(([k, v]) => k + ": " + num(v)).join(", ") || "none";
  const pic = dash.pictures[s.sweep_id];
  // Galleries of sweeps still running are open, of ended ones closed,
  // unless the reader opened or closed one.
  const open = dash.galleryOpen[s.sweep_id] !== undefined ? dash.galleryOpen[s.sweep_id] : s.state === "running" || s.state === "paused";
  const sample = s.sample && html` <span class="badge sample" title="only a sample of the plan: ${num(s.sample.shards)} shards, ${num(s.sample.done)} done">sample ${samplePercent(s.sample.ppm)}</span>`;
  const shards = (k, n) => html`<b class="shards-${k}" data-value="${n}">${num(n)}</b>`;
  return html`<section class="sweep" data-sweep="${id}" data-state="${s.state}"><h2>${id} <span class="state state-${s.state}">${s.state}</span>${sample}</h2><div class="muted">${s.kind} ${params}</div>${
    bar(s)}<div class="legend muted"><span>done ${shards("done", s.shards_done)}</span><span>leased ${shards("leased", s.shards_leased)}</span><span>pending ${
    shards("pending", s.shards_pending)}</span><span>failed ${shards("failed", s.shards_failed)}</span><span>of ${shards("total", s.shards_total)} shards</span></div><dl class="facts"><dt>${
    s.state === "done" ? "positions" : "positions done"}</dt><dd class="positions-done" data-value="${s.positions_done}">${num(s.positions_done)}</dd>${
    s.state !== "done" && estimate(s)}<dt>done</dt><dd class="fraction-done" data-value="${s.fraction_done}">${percent(s)}</dd><dt>rate</dt><dd class="rate">${rate(s.rate)}</dd><dt>ETA${
    sampleOnly(s) ? " of the sample" : ""}</dt><dd class="eta">${s.state === "running" ? duration(s.eta_seconds) : "–"}</dd><dt>counterexamples</dt><dd>${cx}</dd><dt>results refused</dt><dd>${
    num(s.refused_submits + s.results_invalid)}</dd></dl>${chart(s, dash.history.sweeps[s.sweep_id], dash.history.now_ms || Date.now())}${fails}<details class="witnesses" data-sweep="${id}"${
    open && html` open`}><summary>Witnesses and counterexamples${s.state === "done" ? "" : " so far"}${pic ? " (" + pic.count + ")" : ""}</summary><div class="gallery">${
    pic ? pic.html : html`<span class="muted">loading…</span>`}</div></details></section>`;
}

async function refreshPictures(dash, s) {
  const have = dash.pictures[s.sweep_id];
  // Drawn again when shards are done, and when the sweep becomes done
  // (its smallest positions are no longer "so far").
  if (have && have.done === s.shards_done && have.drawn_done === s.shards_done && have.complete === (s.state === "done")) return;
  const p = await get("/api/sweep/" + encodeURIComponent(s.sweep_id) + "/witnesses");
  const figures = p.pictures.map(w =>
    // The picture is the coordinator's own SVG (witnesses.rs draws it).
    html`<figure class="witness${w.counterexample ? " counterexample" : ""}" data-graph6="${w.graph6}"><a class="explore" title="open on a board" href="${witnessHref(w)}">${
      trusted(w.svg)}</a><figcaption>${w.counterexample && html`<b>counterexample</b> `}${w.caption}<br><code>${w.graph6}</code>${
      w.start !== null ? " start " + w.start : ""}</figcaption></figure>`);
  const gallery = !p.pictures.length && !p.error ? html`<span class="muted">none yet</span>`
    : html`${p.error && html`<span class="error">${p.error}</span>`}${figures}`;
  dash.pictures[s.sweep_id] = {
    done: s.shards_done, drawn_done: p.shards_done, complete: !!p.complete,
    html: html`${gallery}${p.omitted > 0 && html`<span class="muted">${p.omitted} more not drawn</span>`}`,
    count: p.pictures.length + (p.omitted || 0),
  };
}

async function refresh(dash) {
  try {
    const [st, h] = await Promise.all([get("/api/status"), get("/api/history")]);
    dash.history = h;
    await Promise.all(st.sweeps.map(s => refreshPictures(dash, s).catch(() => {})));
    // While the store cannot be written nothing shown below is acknowledged.
    const writes = document.getElementById("store-writes");
    writes.textContent = st.store_writes_failing ? "store writes failing: " + st.store_writes_failing +
      " (no result is acknowledged until the store can be written again; writes resume by themselves once there is room)" : "";
    writes.hidden = !st.store_writes_failing;
    document.getElementById("coordinator").textContent =
      "coordinator " + st.coordinator_version + " · store " + bytes(st.store_bytes) + " · memory " + bytes(st.coordinator_rss_bytes);
    setHtml(document.getElementById("sweeps"), st.sweeps.length ? html`${st.sweeps.map(s => sweepHtml(dash, s))}` : html`<p class="muted">No sweeps yet.</p>`);
    setHtml(document.querySelector("#workers tbody"), st.workers.length === 0
      ? html`<tr class="empty"><td colspan="5">no workers connected</td></tr>` : html`${st.workers.map(w =>
        html`<tr class="worker" data-worker="${w.worker_id}"><td>${w.worker_id}</td><td>${w.alive ? "yes" : "no"}</td><td>${
          duration(w.last_seen_ms_ago / 1000)} ago</td><td>${w.shards_held}</td><td>${rate(h.workers[w.worker_id])}</td></tr>`)}`);
    const at = new Date();
    document.getElementById("updated").textContent = "updated " + at.toLocaleTimeString();
    document.getElementById("error").hidden = true;
    document.getElementById("ended").hidden = true;
    document.body.dataset.loaded = "1";
    delete document.body.dataset.lost;
    dash.lastRead = { at, settled: st.sweeps.every(s => s.state !== "running" && s.state !== "paused") };
  } catch (e) {
    if (dash.lastRead === null) {
      const el = document.getElementById("error");
      el.textContent = "Cannot reach the coordinator: " + e.message;
      el.hidden = false;
      return;
    }
    lostCoordinator(dash.lastRead, e);
  }
}

// The coordinator stopped answering after the page had read it
// (`lastRead`): keep its last numbers, say when they were read and whether
// every sweep had ended by then (a `run` that finished stops its
// coordinator a moment later); no ETA counts down over numbers that no
// longer move.
function lostCoordinator(lastRead, e) {
  const t = lastRead.at.toLocaleTimeString();
  const el = document.getElementById("ended");
  el.textContent = lastRead.settled
    ? "The coordinator has stopped; every sweep had ended. These are the final numbers it sent (at " + t + ")."
    : "Lost the coordinator (" + e.message + "): the numbers below are the last it sent, at " + t +
      ", and no longer move; it may have stopped (a run interrupted) or be unreachable. Still trying every 2 s.";
  el.hidden = false;
  document.getElementById("error").hidden = true;
  document.body.dataset.lost = lastRead.settled ? "ended" : "lost";
  document.getElementById("updated").textContent = "last updated " + t;
  document.querySelectorAll("#sweeps dd.eta").forEach(d => { d.textContent = "–"; });
  document.querySelectorAll("#sweeps dd.rate").forEach(d => { d.textContent = "–"; });
}

// The dashboard's state, polled every 2 s.
function createDashboard() {
  const dash = {
    pictures: {},    // sweep id -> {done, drawn_done, complete, html, count}
    galleryOpen: {}, // sweep id -> open or closed, as the reader last set it
    history: { sweeps: {}, workers: {}, now_ms: null },
    lastRead: null,  // {at: Date, settled: every sweep shown had ended}
  };
  // A gallery the reader opens or closes stays so across refreshes (the
  // sweeps are drawn anew every 2 s).
  document.getElementById("sweeps").addEventListener("click", e => {
    const sum = e.target.closest("details.witnesses > summary");
    if (sum) dash.galleryOpen[sum.parentNode.dataset.sweep] = !sum.parentNode.open;
  });
  refresh(dash);
  setInterval(() => refresh(dash), POLL_MS);
  return dash;
}

createDashboard();
