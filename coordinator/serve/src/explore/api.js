// The boards' requests to /explore/api/* and the words shared by every
// panel. A 401 (the dashboard's session ended) goes to the login page.

async function answer(r, path) {
  let body;
  try { body = await r.json(); } catch { body = null; }
  if (r.status === 401) { window.location.assign("/login"); throw new Error("log in first"); }
  if (!r.ok || body === null) throw new Error(body && body.error ? body.error : path + ": HTTP " + r.status);
  return body;
}

/** `GET path`'s JSON, or an Error with the server's message. */
export async function getJson(path) {
  return answer(await fetch(path, { credentials: "same-origin", cache: "no-store" }), path);
}

/** `POST path` with `body` as JSON; its JSON answer, as `getJson`. */
export async function postJson(path, body) {
  return answer(await fetch(path, {
    method: "POST", credentials: "same-origin", cache: "no-store",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  }), path);
}

/** A Grundy value as a nimber: 0, *, *2, ... */
export function nim(k) { return k === 0 ? "0" : k === 1 ? "*" : "*" + k; }

/** The two sides of a partizan game. */
export const SIDE = { L: "Blue (Left)", R: "Red (Right)" };
export const other = s => s === "L" ? "R" : "L";

/** "1 move to the end", "3 moves to the end". */
export function movesToEnd(n) {
  return n + (n === 1 ? " move" : " moves") + " to the end";
}

/** The page's data from the server (a JSON script element), parsed. */
export function pageData(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error("the page has no #" + id);
  return JSON.parse(e.textContent);
}
