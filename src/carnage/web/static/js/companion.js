// The companion page: a phone at a real table, where people drive real cars and the engine
// keeps every rule. It says whose turn it is and what to do in words, shows the templates as
// pictures, the dice rolled on screen or a pad to enter real dice, every dashboard, the log,
// the odds of the decision at hand, and a big Undo. The server keeps the game: a dropped
// connection loses nothing (the page reconnects and catches up; an answer given offline is
// sent when the connection is back), and a service worker keeps the page for offline use.
import { api } from "./api.js";
import { diceRow } from "./dice.js";
import { dicePad } from "./dicepad.js";
import { layTemplate, parseTemplateValue, splitUseLabel, TEMPLATE_USE } from "./templates.js";
import { fill, h, humanise, qs, s, spread } from "./util.js";
import { colourOf, controllerName, playerName, playerOf, renderDashboards, thinkingOf } from "./view.js";
import { pendingOdds, pendingOddsPanel } from "/static/odds-chart.js";

const gid = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const token = qs("token") || "";
const SAVED = `carnage.companion.${gid}`;
const OUTBOX = `carnage.companion.outbox.${gid}`;
const ODDS_KINDS = new Set(["attack", "skid_dice", "collision_reaction"]);
const state = { view: null, entered: [], ws: null, retry: 1000, sending: false, undoArmed: false, undoTimer: null };
const $ = (id) => document.getElementById(id);

function local(key, value) {
  try {
    if (value === undefined) return JSON.parse(localStorage.getItem(key) || "null");
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch { /* private mode: memory is a convenience only */ }
  return null;
}

function setConn(mode, text) {
  const el = $("c-conn");
  el.className = `conn ${mode}`;
  el.textContent = text;
  el.title = mode === "offline"
    ? "No connection: the game is safe on the server; this page catches up when the connection is back"
    : "Connected: the page follows the game as it changes";
  document.body.dataset.conn = mode;
}

function showError(message) {
  const el = $("c-error");
  el.textContent = message || "";
  el.classList.toggle("hidden", !message);
}

const viewUrl = () => `/api/games/${encodeURIComponent(gid)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;

// -- the decision at hand ------------------------------------------------------------------------
function mine(view) {
  const p = view.pending;
  if (!p || !token) return false;
  return p.kind === "table_dice" || (view.your_seat !== null && p.seat === view.your_seat);
}

function templatePicture(value) {
  const { id, mirror, reverse } = parseTemplateValue(value);
  const body = { x: 0, y: 0, heading: 90, length: 40 };
  const laid = layTemplate(body, id, { mirror, reverse });
  if (!laid) return null;
  const car = [[-10, -20], [10, -20], [10, 20], [-10, 20]];
  const pts = laid.outline.concat(car);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => -p[1]);
  const pad = 6;
  const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
  const size = Math.max(Math.max(...xs) - x0, Math.max(...ys) - y0) + pad;
  const path = (ps) => ps.map((p, i) => `${i ? "L" : "M"}${p[0].toFixed(1)},${(-p[1]).toFixed(1)}`).join("") + "Z";
  return s("svg", { viewBox: `${x0} ${y0} ${size} ${size}`, role: "img", "aria-label": `template ${humanise(id)}`, class: "template-pic" },
    s("path", { d: path(laid.outline), fill: "#e0b341", "fill-opacity": 0.35, stroke: "#e0b341", "stroke-width": 1.5 }),
    s("path", { d: path(car), fill: "#8fb3d9", stroke: "#fff", "stroke-width": 1 }));
}

/** An option's words: a template's name, then its use in this gear as a word of its own
 * (``TEMPLATE_USE``), never a letter code. */
function choiceText(label) {
  const [name, letter] = splitUseLabel(label);
  if (!letter) return [name];
  const words = letter === "-" ? `${TEMPLATE_USE["-"]} in this gear` : TEMPLATE_USE[letter];
  return [name, h("span.c-use", { class: `c-use c-use-${letter === "-" ? "X" : letter}` }, words)];
}

function choiceButton(o, picture = null) {
  return h("button.c-choice", { type: "button", dataset: { value: String(o.value) }, onclick: () => send(o.value) },
    picture, ...choiceText(o.label || String(o.value)));
}

function controls(view) {
  const p = view.pending;
  if (p.kind === "table_dice") return dicePad(p, send, state.entered);
  if (p.domain) {
    // a turn starts at no turn (0°) when the range allows it; a distance at its least
    const start = p.domain.low <= 0 && p.domain.high >= 0 ? 0 : p.domain.low;
    const input = h("input.c-number", { type: "number", min: p.domain.low, max: p.domain.high, step: "any", value: start, "aria-label": p.domain.unit === "deg" ? "degrees" : "millimetres" });
    const words = p.domain.unit === "deg" ? "degrees" : "mm";
    return h("div.row", input, h("button.c-choice.c-enter", { type: "button", onclick: () => send(Number(input.value)) }, `Enter (${words})`));
  }
  const pictures = p.kind === "template";
  return h("div.c-options", (p.options || []).map((o) => choiceButton(o, pictures ? templatePicture(o.value) : null)));
}

function renderNow(view) {
  const p = view.pending;
  $("c-round").textContent = view.round ? `Round ${view.round}${view.gear_phase ? ` · gear phase ${view.gear_phase}` : ""}` : "";
  document.body.dataset.version = String(view.version);
  document.body.dataset.pending = p ? p.kind : "";
  if (!p) {
    const won = view.winner !== null && view.winner !== undefined;
    fill($("c-who"), view.status === "finished" ? (won ? `${playerName(view, view.winner)} wins!` : "A draw") : "…");
    $("c-what").textContent = view.outcome_reason || "";
    fill($("c-controls"));
    fill($("c-odds"));
    return;
  }
  const who = playerName(view, p.seat);
  const thinking = thinkingOf(view);
  const swatch = h("span.swatch", { style: { background: colourOf(view, p.seat) } });
  if (p.kind === "table_dice") fill($("c-who"), swatch, "Roll the dice at the table");
  else if (mine(view)) fill($("c-who"), swatch, `${who}: your decision`);
  else fill($("c-who"), swatch, thinking ? `${thinking.team} is thinking…`
    : `Waiting for ${who} (${controllerName(playerOf(view, p.seat).controller)})`);
  $("c-what").textContent = p.prompt;
  fill($("c-controls"), mine(view) ? controls(view) : null);
  if (mine(view) && ODDS_KINDS.has(p.kind)) showOdds(view);
  else fill($("c-odds"));
}

async function showOdds(view) {
  try {
    const answer = await pendingOdds(gid, token);
    if (!state.view || answer.version !== state.view.version) return;
    const panel = pendingOddsPanel(answer);
    fill($("c-odds"), panel ? [h("h2", "The odds"), panel, h("p.small.muted", answer.basis)] : []);
  } catch (e) {
    fill($("c-odds"), h("p.small.muted", `No odds: ${e.message}`));
  }
}

// With one phone per player, an undo asked by another seat waits for this one (ruling CP-20).
function renderAsked(view) {
  const asked = view.undo_asked || [];
  const me = view.your_seat;
  const others = asked.filter((seat) => seat !== me);
  const el = $("c-asked");
  el.classList.toggle("hidden", !others.length || asked.includes(me));
  el.textContent = others.length
    ? `${others.map((seat) => playerName(view, seat)).join(" and ")} ${others.length === 1 ? "asks" : "ask"} to take back the last answer. Tap Undo to agree.`
    : "";
}

function renderDice(view) {
  const rows = [];
  if (view.pending && view.pending.dice) rows.push(h("div.roll", h("b", "At hand: "), diceRow(view.pending.dice)));
  for (const l of (view.log || []).filter((x) => x.dice).slice(-4).reverse()) {
    rows.push(h("div.roll", { dataset: { seq: l.seq } }, h("span.small", l.text, " "), diceRow(l.dice, { small: true })));
  }
  fill($("c-dice"), rows.length ? rows : h("p.muted.small", "No dice rolled yet."));
}

function renderLog(view) {
  const lines = (view.log || []).slice(-80).reverse();
  fill($("c-log"), lines.map((l) => h("li", { dataset: { seq: l.seq, kind: l.kind } },
    h("span.cite", `${l.rule || l.source}${l.page ? ` p.${l.page}` : ""}`), l.text)));
}

function render(view, { force = false } = {}) {
  if (!view || !view.id) return;
  if (!force && state.view && view.version < state.view.version) return;
  if (!state.view || view.version !== state.view.version) state.entered = [];
  state.view = view;
  local(SAVED, view);
  renderNow(view);
  renderDice(view);
  if (Array.isArray(view.vehicles) && Array.isArray(view.players)) renderDashboards($("c-dash"), view);
  renderLog(view);
  renderAsked(view);
  $("c-undo").disabled = !token || view.version === 0;
  document.body.dataset.ready = "1";
}

// -- acting --------------------------------------------------------------------------------------
async function send(choice) {
  const view = state.view;
  if (!view || state.sending) return;
  state.sending = true;
  showError("");
  try {
    const out = await api.post(`/api/games/${encodeURIComponent(gid)}/decisions`, { token, version: view.version, choice });
    local(OUTBOX, null);
    render(out);
  } catch (e) {
    if (e.status === 0) {  // no connection: kept, sent when the connection is back
      local(OUTBOX, { version: view.version, choice });
      setConn("offline", "offline: your answer waits");
      showError("No connection: your answer is kept and sent when the connection is back. The game is safe on the server.");
    } else {
      showError(e.message);
      if (e.status === 409) await refresh();
    }
  } finally {
    state.sending = false;
  }
}

// Undo asks twice: a second tap within a few seconds (a mis-tap on Undo itself costs nothing).
async function undo() {
  const view = state.view;
  if (!view) return;
  const button = $("c-undo");
  if (!state.undoArmed) {
    state.undoArmed = true;
    button.classList.add("armed");
    button.textContent = "Tap again to undo the last answer";
    state.undoTimer = setTimeout(disarm, 4000);
    return;
  }
  disarm();
  showError("");
  try {
    const out = await api.post(`/api/games/${encodeURIComponent(gid)}/undo`, { token, version: view.version });
    // With one phone per player, taking back dice or another seat's answer waits for the
    // other seats to agree (ruling CP-20): the answer says who, in words.
    if (out && out.undone === false) showError(out.message ? out.message[0].toUpperCase() + out.message.slice(1) + "." : "The undo waits for the other players to agree.");
    await refresh();
  } catch (e) {
    showError(e.message);
  }
}

function disarm() {
  clearTimeout(state.undoTimer);
  state.undoArmed = false;
  const button = $("c-undo");
  button.classList.remove("armed");
  button.textContent = "↶ Undo the last answer";
}

async function flushOutbox() {
  const kept = local(OUTBOX);
  if (!kept || !state.view) return;
  local(OUTBOX, null);
  if (kept.version !== state.view.version) {
    showError("An answer given offline was not sent: the game moved on meanwhile.");
    return;
  }
  await send(kept.choice);
}

async function refresh() {
  try {
    render(await api.get(viewUrl()));
    return true;
  } catch (e) {
    if (e.status === 0) setConn("offline", "offline");
    else showError(e.message);
    return false;
  }
}

// -- connection ----------------------------------------------------------------------------------
function connect() {
  if (!("WebSocket" in window)) return;
  const proto = window.location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try {
    ws = new WebSocket(`${proto}://${window.location.host}/api/games/${encodeURIComponent(gid)}/ws${token ? `?token=${encodeURIComponent(token)}` : ""}`);
  } catch {
    setTimeout(connect, spread(state.retry));
    return;
  }
  state.ws = ws;
  ws.onopen = async () => {
    state.retry = 1000;
    setConn("live", "live");
    await refresh();
    await flushOutbox();
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "view") render(msg.view);
  };
  ws.onclose = () => {
    if (state.ws !== ws) return;
    state.ws = null;
    setConn("offline", "offline · retrying");
    setTimeout(connect, spread(state.retry));
    state.retry = Math.min(state.retry * 2, 15000);
  };
}

function start() {
  $("c-undo").addEventListener("click", undo);
  const saved = local(SAVED);
  if (saved) render(saved);  // the last state seen, while the server is asked
  window.addEventListener("online", () => { if (!state.ws) connect(); });
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/companion-sw.js", { scope: "/companion/" }).catch(() => {});
  }
  refresh().then(connect);
}

start();
