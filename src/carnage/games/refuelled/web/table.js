// The table: live game view over a websocket (with a polling fallback), the board, the
// dashboards, the log, and the pending decision as controls for this seat only.
import { api, seatStore } from "/static/js/api.js";
import { Board } from "/static/js/board.js";
import { mountChat } from "/static/js/chat.js";
import { decisionControls } from "/static/js/decisions.js";
import { boardPick, clearPicks, smallScreen } from "/static/js/boardpick.js";
import { markPicked, pendingOdds, pendingOddsPanel } from "/static/odds-chart.js";
import { LogView } from "/static/js/log.js";
import { briefNodes, scoreboardNode } from "/static/js/objectives.js";
import { Playback, getPace, paceControl } from "/static/js/playback.js";
import { parseTemplateValue } from "/static/js/templates.js";
import { copyText, fill, h, humanise, qs, spread } from "/static/js/util.js";
import {
  colourOf, controllerName, playerName, renderDashboards, renderPlayers,
  resultBanner, statusLine, thinkingLine, thinkingOf, turnLine,
} from "/static/js/view.js";

const gid = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const token = qs("token");
const campaign = qs("campaign"); // a campaign's event: a way back to its page
if (campaign) {
  document.querySelector(".topbar .brand").after(h("a#back-to-campaign.small",
    { href: `/campaigns/${encodeURIComponent(campaign)}` }, "← back to the campaign"));
}
const PLACED_KINDS = new Set(["skid_dice", "push_it", "spend_shift", "slide"]);

const state = {
  view: null,
  busy: false,
  ws: null,
  wsOpen: false,
  retry: 1000,
  pollTimer: null,
  placed: null, // the template this seat laid for the current move
  error: null,
  ctx: null,
};

const log = new LogView(document.getElementById("log"), { gid, token });
const seatQuery = token ? `&token=${encodeURIComponent(token)}` : ""; // this seat's secrets
const board = new Board(document.getElementById("board"), {
  onVehicleClick: (id) => state.ctx && state.ctx.onVehicleClick && state.ctx.onVehicleClick(id),
});
const playback = new Playback(board, document.getElementById("playback"));
let chain = Promise.resolve();

function viewUrl() {
  return `/api/games/${encodeURIComponent(gid)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
}

// ---------------------------------------------------------------------------------- errors
function showError(message) {
  state.error = message;
  const box = document.getElementById("decision-error");
  if (box) {
    box.textContent = message;
    box.classList.remove("hidden");
  }
  const f = h("div.flash", { role: "alert" }, message);
  document.body.append(f);
  setTimeout(() => f.remove(), 4000);
}

// ---------------------------------------------------------------------------------- acting
/** Answer the pending decision; ``then``: answers for the same seat's next decisions, in the
 * same action ([{kind, choice}], the server's ``shortcuts`` and ``follow_up``). */
async function submit(choice, then = []) {
  const view = state.view;
  if (!view || state.busy) return;
  if (!token) {
    showError("You are watching: open your seat's join link to play.");
    return;
  }
  state.busy = true;
  document.getElementById("decision").classList.add("busy");
  const pending = view.pending;
  state.acting = pending ? { seat: pending.seat, version: view.version } : null;
  const placedBefore = state.placed;
  const tpl = pending && pending.kind === "template" ? choice
    : (then.find((s) => s.kind === "template") || {}).choice;
  if (tpl !== undefined && pending && (pending.kind === "template" || state.previewed)) {
    // Remember the template now: the websocket may deliver the next view before the answer.
    const t = parseTemplateValue(tpl);
    const shown = pending.kind === "template" ? pending : state.previewed;
    const pieces = shown.preview && shown.preview.templates ? shown.preview.templates[String(tpl)] : null;
    state.placed = { ...t, vehicle: shown.vehicle || (shown.preview && shown.preview.vehicle), pieces };
    try { sessionStorage.setItem(`carnage.placed.${gid}`, JSON.stringify(state.placed)); } catch { /* optional */ }
  }
  try {
    const next = await api.post(`/api/games/${encodeURIComponent(gid)}/decisions`, {
      token, version: view.version, choice, ...(then.length ? { then } : {}),
    });
    state.error = null;
    apply(next);
  } catch (e) {
    state.placed = placedBefore;
    showError(e.message);
    if (e.status === 409) refresh();
  } finally {
    state.busy = false;
    // Moves being played out keep the panel waiting until the view they lead to is shown.
    if (!state.playing) document.getElementById("decision").classList.remove("busy");
  }
}

// ---------------------------------------------------------------------------------- rendering
/** What a view says of the bot it waits for: a newer view of the same version may say more. */
function thinkingKey(view) {
  const t = thinkingOf(view);
  return t ? `${t.seat}:${t.failed || ""}` : "";
}

function lastSeqOf(view) {
  return view && view.log.length ? view.log[view.log.length - 1].seq : -1;
}

function apply(view) {
  const prev = state.latest;
  if (prev && view.version < prev.version) return;
  if (prev && view.version === prev.version && view.your_seat === prev.your_seat && view.status === prev.status
    && thinkingKey(view) === thinkingKey(prev)) return;
  state.latest = view;
  if (!state.view) {
    render(view, false);
    return;
  }
  const own = state.acting && view.version > state.acting.version ? state.acting.seat : null;
  if (own !== null) state.acting = null;
  log.add(view.log);
  chain = chain.then(async () => {
    const shown = state.view;
    if (state.latest !== view) return; // a newer view is on its way: play that one instead
    document.getElementById("decision").classList.add("busy");
    state.playing = true;
    try {
      await playOut(shown, view, own);
    } finally {
      state.playing = false;
    }
  }).catch(() => {}).then(() => {
    if (state.latest === view) render(view, true);
  });
}

/** Play out the events between ``prev`` and ``view`` on the board, except those that follow
 * this seat's own choice (``own``): the player has just seen them happen. */
async function playOut(prev, view, own) {
  if (getPace() === "skip") return;
  const since = lastSeqOf(prev) + 1;
  const until = lastSeqOf(view);
  if (until < since) return;
  const base = `/api/games/${encodeURIComponent(gid)}`;
  let [events, lines] = await Promise.all([api.get(`${base}/events?since=${since}${seatQuery}`), api.get(`${base}/log?since=${since}${seatQuery}`)]);
  events = events.filter((e) => e.seq <= until);
  if (own !== null) {
    const i = events.findIndex((e) => (e.kind === "decision" || e.kind === "forced_choice") && e.data.player !== own);
    events = i < 0 ? [] : events.slice(i);
  }
  if (!events.length) return;
  board.update(prev, { animate: false });
  await playback.play(prev, view, events, lines);
}

function render(view, animate) {
  state.view = view;
  document.getElementById("decision").classList.remove("busy");
  handOver(view);
  document.title = `Carnage — round ${view.round}, ${view.status === "finished" ? "finished" : "in progress"}`;
  board.update(view, { animate });
  fill(document.getElementById("game-status"), statusLine(view));
  fill(document.getElementById("turn"), turnLine(view));
  document.getElementById("download-log").href = `/api/games/${encodeURIComponent(gid)}/log?format=text${seatQuery}`;
  renderPlayers(document.getElementById("players"), view);
  renderObjectives(view);
  renderSecrets(document.getElementById("secrets"), view);
  renderBotNotes(view);
  renderInvites();
  log.add(view.log);
  if (!log.loadedOlder && view.log.length && view.log[0].seq > 0) {
    log.loadedOlder = true;
    log.loadOlder();
  }
  renderDecision(view);
  const result = document.getElementById("result");
  const banner = resultBanner(view);
  result.classList.toggle("hidden", !banner);
  fill(result, banner);
  document.body.dataset.version = String(view.version);
  document.body.dataset.status = view.status;
  document.body.dataset.pending = view.pending ? view.pending.kind : "";
  document.body.dataset.pendingSeat = view.pending ? String(view.pending.seat) : "";
}

/** The label of the candidate a bot note says was chosen (its value as text if none). */
function chosenLabel(n) {
  const c = (n.candidates || []).find((x) => String(x.choice) === n.chosen);
  return c && c.label ? c.label : n.chosen;
}

/** Why the search bots chose what they did: each candidate weighed with its value. */
function renderBotNotes(view) {
  const el = document.getElementById("bot-notes");
  const notes = view.bot_notes || [];
  el.classList.toggle("hidden", !notes.length);
  fill(el, notes.length ? [
    h("b", "Why the bot chose"),
    ...notes.map((n) => h("div.bot-note", { dataset: { seat: n.seat, decision: n.decision } },
      h("span.swatch", { style: { background: colourOf(view, n.seat) } }),
      // the short reason first: "<team> chose <label>: won 14 of 22 playouts, next best 9 of 21"
      n.reason ? h("div.bot-reason", h("b", `${playerName(view, n.seat)} chose ${chosenLabel(n)}: `), n.reason) : null,
      ...n.lines.filter((line) => !n.reason || line.trim() !== n.reason)
        .map((line, i) => h(i ? "div.small" : "div", line)))),
  ] : []);
}

// Decisions whose options roll dice: the table shows each option's exact odds under the
// controls (/api/odds/games/{id}/pending), before the choice is made.
const ODDS_KINDS = new Set(["attack", "skid_dice", "collision_reaction"]);

// A target picked on the table brings its odds to the top of the list.
document.addEventListener("carnage-picked", () =>
  markPicked(document.getElementById("decision-odds"), document.body.dataset.picked));

async function showOdds(view) {
  let box;
  try {
    const answer = await pendingOdds(gid, token);
    box = document.getElementById("decision-odds");
    if (!box || box.dataset.version !== String(view.version) || answer.version !== view.version) return;
    const panel = pendingOddsPanel(answer);
    fill(box, panel ? [h("h3.small", "The odds"), panel, h("p.small.muted", answer.basis)] : []);
    markPicked(box, document.body.dataset.picked);
    box.dataset.shown = String(view.version);
  } catch (e) {
    box = document.getElementById("decision-odds");
    if (box && box.dataset.version === String(view.version)) {
      fill(box, h("p.small.muted", `No odds: ${e.message}`));
      box.dataset.shown = String(view.version);
    }
  }
}

function renderDecision(view) {
  const panel = document.getElementById("decision");
  board.stopSpin();
  board.clearOverlays();
  clearPicks(board);
  const p = view.pending;
  state.previewed = null;
  const ctx = {
    board,
    submit,
    onVehicleClick: null,
    boardPick,
    pickSlot: h("div.pick-slot"),  // where the moves of a vehicle about to activate are picked
    placedTemplate: () => (state.placed && state.placed.vehicle ? state.placed : null),
    // The view after a choice, nothing sent (null when the server cannot show it first).
    preview: async (choice) => {
      try {
        const q = new URLSearchParams({ token, version: String(view.version), choice: String(choice) });
        const next = await api.get(`/api/games/${encodeURIComponent(gid)}/preview?${q}`);
        if (state.ctx !== ctx) return null;  // another decision is shown by now
        state.previewed = next.pending;
        return next;
      } catch { return null; }
    },
    setPreference: async (key, value) => {
      try {
        apply(await api.put(`/api/games/${encodeURIComponent(gid)}/preferences`, { token, key, value }));
      } catch (e) { showError(e.message); }
    },
  };
  state.ctx = ctx;
  const active = p ? p.vehicle : null;
  board.setFocus(active, []);
  if (!p || !PLACED_KINDS.has(p.kind)) {
    if (p && p.kind !== "template") state.placed = null;
  }
  let body;
  let pick = null;
  // Dice rolled at the table are entered by any seat at it (a bot's too: kernel/table_dice.py).
  const mine = p && view.your_seat !== null && view.your_seat !== undefined && view.status !== "finished"
    && (p.seat === view.your_seat || (p.kind === "table_dice" && Boolean(token)));
  if (view.status === "finished") {
    body = [h("h2", "Game over"), h("p", view.outcome_reason || "")];
  } else if (!p) {
    body = h("p.muted", "Nothing to decide.");
  } else if (mine) {
    const controls = decisionControls(view, ctx);
    // The choices drawn on the board to tap (boardpick.js); the list stays, folded away under
    // "All options" on a phone.
    pick = boardPick(view, ctx);
    body = [
      h("div.prompt-head",
        h("span.swatch", { style: { background: colourOf(view, p.seat) } }),
        h("b.prompt", p.prompt)),
      h("div.cite.small", h("span.rule", p.rule || humanise(p.source)), p.page ? h("span.page", `Refuelled p.${p.page}`) : null),
      pick ? [pick.hint, pick.bar] : null,
      ctx.pickSlot,
      pick ? h("details.all-options", {
        open: state.allOptions ?? !smallScreen(),
        ontoggle: (e) => { state.allOptions = e.target.open; },
      }, h("summary", "All options"), controls) : controls,
      ODDS_KINDS.has(p.kind) && token ? h("div#decision-odds.decision-odds", { dataset: { version: String(view.version) } }) : null,
    ];
  } else {
    const who = playerName(view, p.seat);
    const ctrl = controllerName(view.players.find((q) => q.seat === p.seat)?.controller || "human");
    const thinking = thinkingOf(view);
    body = [
      h("div.prompt-head", h("span.swatch", { style: { background: colourOf(view, p.seat) } }),
        thinking ? h("b", thinkingLine(thinking)) : h("b", `${who} (${ctrl}) is deciding`)),
      h("p.muted", p.prompt),
      token ? null : h("p.small.muted", "You are watching this game. Players join with their seat's link."),
    ];
  }
  fill(panel, sheetToggle(panel), body, h("div#decision-error.decision-error.hidden", { role: "alert" }));
  // The board's size follows the panel on a phone: look at the choices once it is laid out.
  layoutSizes();
  if (pick && pick.settle) pick.settle();
  if (mine && ODDS_KINDS.has(p.kind) && token) showOdds(view);
  panel.dataset.kind = p ? p.kind : "";
  panel.classList.toggle("mine", Boolean(mine));
  const clickable = new Set(board.clickable);
  renderDashboards(document.getElementById("dashboards"), view, {
    activeId: active,
    clickable,
    onclick: (id) => {
      if (clickable.has(id) && ctx.onVehicleClick) ctx.onVehicleClick(id);
      else board.focusVehicle(id);
    },
  });
}

/** On a phone the decision is a sheet fixed to the bottom of the screen: this folds it down to
 * its first lines (the prompt and the Confirm bar) and opens it again. */
function sheetToggle(panel) {
  const folded = panel.classList.contains("folded");
  return h("button.sheet-toggle", {
    type: "button", "aria-expanded": String(!folded),
    title: folded ? "Show the whole decision" : "Fold the decision down",
    onclick: () => {
      const now = !panel.classList.contains("folded");
      panel.classList.toggle("folded", now);
      const b = panel.querySelector(".sheet-toggle");
      b.setAttribute("aria-expanded", String(!now));
      b.textContent = now ? "▲" : "▼";
      b.title = now ? "Show the whole decision" : "Fold the decision down";
    },
  }, folded ? "▲" : "▼");
}

function renderInvites() {
  const mine = seatStore.load(gid);
  const box = document.getElementById("players");
  if (!mine || !mine.seats || !state.view) return;
  const others = mine.seats.filter((s) => s.url && !(token && s.url.includes(token)));
  if (!others.length) return;
  box.append(h("details.invites",
    h("summary.small", "Invite links"),
    others.map((s) => {
      const url = new URL(s.url, window.location.origin).href;
      return h("div.linkbox.small",
        h("span.swatch", { style: { background: colourOf(state.view, s.seat) } }),
        h("input", { value: url, readonly: true }),
        h("button.small", { onclick: (e) => copyText(url).then(() => { e.target.textContent = "Copied"; }) }, "Copy"));
    })));
}

// ---------------------------------------------------------------------------------- updates
async function refresh() {
  try {
    apply(await api.get(viewUrl()));
  } catch (e) {
    if (e.status === 403 || e.status === 404) fatal(e.message);
  }
}

function fatal(message) {
  stopPolling();
  if (state.ws) state.ws.close();
  state.ws = null;
  state.dead = true;
  fill(document.getElementById("decision"),
    h("h2", "Cannot open this game"), h("p", message),
    h("p", h("a", { href: "/" }, "Back to the lobby")));
}

function setConn(kind) {
  const el = document.getElementById("conn");
  el.className = `conn ${kind}`;
  el.title = { live: "live updates", poll: "polling for updates", off: "offline" }[kind] || kind;
  document.body.dataset.conn = kind;
}

function startPolling() {
  if (state.pollTimer) return;
  setConn("poll");
  state.pollTimer = setInterval(refresh, 2000);
}

function stopPolling() {
  clearInterval(state.pollTimer);
  state.pollTimer = null;
}

function connect() {
  if (state.dead || !("WebSocket" in window)) {
    startPolling();
    return;
  }
  const proto = window.location.protocol === "https:" ? "wss" : "ws";
  const url = `${proto}://${window.location.host}/api/games/${encodeURIComponent(gid)}/ws${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  let ws;
  try {
    ws = new WebSocket(url);
  } catch {
    startPolling();
    return;
  }
  state.ws = ws;
  ws.onopen = () => {
    state.wsOpen = true;
    state.retry = 1000;
    stopPolling();
    setConn("live");
    if (state.chat) state.chat.refresh(); // what was said while the socket was down
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "view" && msg.view) apply(msg.view);
    else if (msg.type === "chat") { if (state.chat) state.chat.onFrame(msg); }
    else if (msg.type === "error") {
      if (!state.view && (msg.status === 403 || msg.status === 404)) fatal(msg.detail);
      else showError(msg.detail);
    }
  };
  ws.onclose = () => {
    state.wsOpen = false;
    state.ws = null;
    if (state.dead) return;
    startPolling();
    setTimeout(connect, spread(state.retry));
    state.retry = Math.min(15000, state.retry * 2);
  };
}

/** Hot-seat (one page holding several seats' tokens): when the decision passes to another of
 * them, cover the table until the next player takes over. */
function handOver(view) {
  const cover = document.getElementById("handover");
  const seats = token ? token.split(",").filter(Boolean).length : 0;
  const p = view.pending;
  if (seats < 2 || !p || view.status === "finished") {
    cover.classList.add("hidden");
    return;
  }
  if (state.lastSeat !== undefined && state.lastSeat !== p.seat) {
    const who = playerName(view, p.seat);
    fill(cover, h("div.handover-card",
      h("span.swatch.big", { style: { background: colourOf(view, p.seat) } }),
      h("h2", `Pass the table to ${who}`),
      h("p", `${who}: the decision is yours. Click when you are sitting at the table.`),
      h("button.primary#handover-ready", { type: "button", onclick: () => cover.classList.add("hidden") }, `I am ${who}: show my decision`)));
    cover.classList.remove("hidden");
  }
  state.lastSeat = p.seat;
}

function tools() {
  document.getElementById("pace").append(paceControl((p) => { if (p === "skip") playback.skip(); }));
  document.getElementById("zoom-in").addEventListener("click", () => board.zoomBy(1.4));
  document.getElementById("zoom-out").addEventListener("click", () => board.zoomBy(1 / 1.4));
  document.getElementById("zoom-fit").addEventListener("click", () => board.resetZoom());
  document.getElementById("rotate").addEventListener("click", () => board.setRotation(!board.isRotated()));
  const help = document.getElementById("help");
  document.getElementById("help-toggle").addEventListener("click", () => help.classList.toggle("hidden"));
  document.getElementById("help-close").addEventListener("click", () => help.classList.add("hidden"));
}

/** The heights of the top bar and of the decision sheet, for the phone layout (table.css): the
 * board fills what they leave of the screen. */
function layoutSizes() {
  const top = document.querySelector(".topbar");
  const sheet = document.getElementById("decision");
  document.body.style.setProperty("--top-h", `${Math.ceil(top.getBoundingClientRect().height)}px`);
  const fixed = getComputedStyle(sheet).position === "fixed";
  document.body.style.setProperty("--sheet-h", fixed ? `${Math.ceil(sheet.getBoundingClientRect().height)}px` : "0px");
}

function measure() {
  const watch = new ResizeObserver(layoutSizes);
  watch.observe(document.querySelector(".topbar"));
  watch.observe(document.getElementById("decision"));
  window.addEventListener("resize", layoutSizes);
  layoutSizes();
}

async function main() {
  tools();
  measure();
  try {
    const saved = sessionStorage.getItem(`carnage.placed.${gid}`);
    if (saved) state.placed = JSON.parse(saved);
  } catch { /* optional */ }
  window.carnage = {
    get view() { return state.view; },
    submit,
    token,
    gid,
    board,
  };
  await refresh();
  if (!state.dead) state.chat = mountChat({ gid, token, before: document.querySelector(".log-panel") });
  connect();
  if (!state.view && !state.dead) startPolling();
  document.body.dataset.ready = "1";
}

main();

/** What this seat alone may see (its delivery slip, its noted terrain piece). */
function renderSecrets(el, view) {
  if (!el) return;
  const items = view.secrets || [];
  el.hidden = !items.length;
  fill(el, items.length ? [h("h3", "Only you can see"),
    h("ul", items.map((s) => h("li", { dataset: { secret: s.key } }, [h("b", `${s.label}: `), s.text])))] : []);
}

/** The scenario in the "?" help (how to win, its rules with pages, what the ruleset changes)
 * and its scoreboard, from the view (GameView.brief, GameView.scoreboard). */
function renderObjectives(view) {
  const help = document.getElementById("help-scenario");
  if (help && view.brief && help.dataset.scenario !== `${view.ruleset}/${view.brief.id}`) {
    help.dataset.scenario = `${view.ruleset}/${view.brief.id}`;
    fill(help, briefNodes(view.brief));
  }
  const el = document.getElementById("scoreboard");
  if (!el) return;
  el.hidden = !view.scoreboard;
  fill(el, scoreboardNode(view.scoreboard, (seat) => colourOf(view, seat), view.report));
}
