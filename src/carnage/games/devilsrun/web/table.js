// The Devil's Run table: the rolling road drawn from the server's view JSON, each vehicle's
// stat card, the latest dice, the log (each line with its rule), and the pending decision as
// numbered buttons for this seat only. Live over a websocket, polling when it drops.
import { api } from "/static/js/api.js";
import { briefNodes, scoreboardNode } from "/static/js/objectives.js";
import { mountChat } from "/static/js/chat.js";
import { fill, h, qs, s, spread } from "/static/js/util.js";
import { barChart, pct } from "/static/odds-chart.js";

const gid = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const token = qs("token");
const CELL = 34;
const LEFT = 30;
const TOP = 10;
const COLOURS = { law: "#2f5da8", "haul-angels": "#b23a2a" };
const STATUS = {
  running: "on the road", wreck: "a wreck", reserve: "waiting to deploy",
  destroyed: "destroyed", wiped_out: "wiped out", removed: "left the road",
};

const state = { view: null, busy: false, ws: null, pollTimer: null, retry: 1000, replay: null };
window.carnage = state;

function viewUrl() {
  const t = token ? `?token=${encodeURIComponent(token)}` : "";
  return `/api/games/${encodeURIComponent(gid)}${t}`;
}

function flash(message) {
  const f = h("div.flash", { role: "alert" }, message);
  document.body.append(f);
  setTimeout(() => f.remove(), 4000);
  const box = document.getElementById("dr-error");
  if (box) {
    box.textContent = message;
    box.classList.remove("hidden");
  }
}

// ---------------------------------------------------------------------------------- board
function drawBoard(v) {
  const b = v.board;
  const rows = b.front_end - b.back_row;
  const width = LEFT + b.width * CELL + 70;
  const height = TOP * 2 + rows * CELL + 16;
  const sx = (x) => LEFT + x * CELL;
  const sy = (y) => TOP + (b.front_end - 1 - y) * CELL;
  const parts = [];
  const arcAt = new Map(v.arcs.map((a) => [`${a.square[0]},${a.square[1]}`, a]));
  for (const t of b.tiles) {
    const debris = new Set(t.debris.map(([x, y]) => `${x},${y}`));
    const imp = new Set(t.impassable.map(([x, y]) => `${x},${y}`));
    for (let y = t.origin; y < t.origin + t.rows; y++) {
      for (let x = 0; x < b.width; x++) {
        const k = `${x},${y}`;
        const cls = imp.has(k) ? "cell impassable" : debris.has(k) ? "cell debris" : "cell";
        parts.push(s("rect", { class: cls, x: sx(x), y: sy(y), width: CELL, height: CELL, "data-square": k }));
        const arc = arcAt.get(k);
        if (arc) {
          parts.push(s("rect", { class: `arc ${arc.arc}`, x: sx(x) + 2, y: sy(y) + 2, width: CELL - 4, height: CELL - 4 }));
          parts.push(s("text", { class: "arc-mod", x: sx(x) + CELL / 2, y: sy(y) + CELL / 2 + 4, "text-anchor": "middle" },
            arc.modifier > 0 ? `+${arc.modifier}` : String(arc.modifier)));
        }
      }
      parts.push(s("text", { class: "row-no", x: LEFT - 4, y: sy(y) + CELL / 2 + 3, "text-anchor": "end" }, String(y + 1)));
    }
    const edge = sy(t.origin) + CELL;
    parts.push(s("line", { class: "tile-edge", x1: LEFT, x2: LEFT + b.width * CELL, y1: edge, y2: edge }));
    parts.push(s("text", { class: "tile-name", x: LEFT + b.width * CELL + 6, y: sy(t.origin + t.rows - 1) + 14 },
      `Tile ${t.name}`));
    parts.push(s("text", { class: "tile-name", x: LEFT + b.width * CELL + 6, y: sy(t.origin + t.rows - 1) + 28 },
      t.placed > 2 ? "rolled to the front" : "first lay"));
  }
  const front = TOP;
  parts.push(s("line", { class: "tile-edge", x1: LEFT, x2: LEFT + b.width * CELL, y1: front, y2: front }));
  for (let x = 0; x < b.width; x++) {
    parts.push(s("text", { class: "col-no", x: sx(x) + CELL / 2, y: height - 4, "text-anchor": "middle" }, String(x + 1)));
  }
  if (v.stash && v.stash.status === "placed" && v.stash.square) {
    const [x, y] = v.stash.square;
    parts.push(s("circle", { class: "stash", cx: sx(x) + CELL / 2, cy: sy(y) + CELL / 2, r: CELL / 4 },
      s("title", {}, "the stash")));
  }
  const active = v.active ? v.active.vehicle : null;
  for (const veh of v.vehicles) {
    if (!veh.squares.length) continue;
    const ys = veh.squares.map((q) => q[1]);
    const x = veh.squares[0][0];
    const top = Math.max(...ys);
    const n = veh.squares.length;
    const cls = `vehicle${veh.id === active ? " active" : ""}${veh.status === "wreck" ? " wreck" : ""}`;
    parts.push(s("rect", {
      class: cls, x: sx(x) + 3, y: sy(top) + 3, width: CELL - 6, height: n * CELL - 6, rx: 5,
      fill: COLOURS[veh.gang] || "#777", "data-vehicle": veh.id,
    }, s("title", {}, `${veh.name}: ${veh.cp}/${veh.max_cp} chassis, ${STATUS[veh.status] || veh.status}`)));
    parts.push(s("text", { class: "vlabel", x: sx(x) + CELL / 2, y: sy(top) + CELL / 2 + 4, "text-anchor": "middle" },
      veh.type[0].toUpperCase() + (veh.carrying ? "★" : "")));
  }
  const svg = s("svg", { xmlns: "http://www.w3.org/2000/svg", width, height, viewBox: `0 0 ${width} ${height}`,
    "data-back-row": b.back_row, "data-front-end": b.front_end }, parts);
  fill(document.getElementById("dr-board"), svg);
}

// ------------------------------------------------------------------------------ stat cards
function drawCards(v) {
  const active = v.active ? v.active.vehicle : null;
  const cards = v.vehicles.map((veh) => {
    const out = !["running", "wreck"].includes(veh.status);
    return h(`div.dr-card${veh.id === active ? ".active" : ""}${out ? ".out" : ""}`,
      { dataset: { vehicle: veh.id }, style: { borderLeft: `6px solid ${COLOURS[veh.gang] || "#777"}` } },
      h("h4", `${veh.name}${veh.carrying ? " — carrying the stash" : ""}`),
      h("table",
        h("tr", [["Move", "movement modifier"], ["Chassis", "chassis points left / most"],
          ["Armour", "armour"], ["Evade", "evade"], ["BS 1", "driver's ballistic skill"],
          ["BS 2", "gunner's ballistic skill"]].map(([x, t]) => h("th", { title: t }, x))),
        h("tr", [String(veh.mm), `${veh.cp}/${veh.max_cp}`, String(veh.a), String(veh.e), String(veh.bs1),
          veh.bs2 === null ? "–" : String(veh.bs2)].map((x) => h("td", x)))),
      h("div.line", veh.weapons.map((w) => `${w.name} (${w.slot}, range ${w.range}, ${w.rof} dice)`).join("; ")),
      h("div.line", STATUS[veh.status] || veh.status));
  });
  fill(document.getElementById("dr-cards-live"), cards);
}

// ---------------------------------------------------------------------------- the decision
function drawDecision(v) {
  const box = document.getElementById("dr-decision");
  const p = v.pending;
  if (!p) {
    fill(box, h("h3", "The game is over"), h("p", v.outcome ? outcomeText(v) : ""),
      h("button#dr-replay-start", { type: "button", onclick: () => showStep(0) }, "Step through the game"));
    return;
  }
  const gang = v.players[p.player].name;
  if (!v.your_turn) {
    const who = v.seats[p.player].controller === "human" ? `${gang} (another player)` : `${gang} (the bot)`;
    // The bot's choice computed apart on the server (RulesetView.thinking): pushed when made.
    const t = v.thinking && v.thinking.version === v.version ? v.thinking : null;
    const head = !t ? `Waiting for ${who}` : t.failed ? `${gang} could not decide (${t.failed}); the game waits`
      : `${gang} is thinking…`;
    fill(box, h(t && t.failed ? "h3.bot-thinking.failed" : t ? "h3.bot-thinking" : "h3", head), h("p.muted", p.text));
    return;
  }
  const buttons = p.options.map((o, i) => h("button.choice", {
    type: "button", dataset: { value: String(o.value), index: String(i + 1) },
    onclick: () => submit(o.value),
  }, `${i + 1}. ${o.text}`));
  const odds = p.options.filter((o) => o.odds).map((o) => optionOdds(o));
  fill(box,
    h("h3", "Your move"),
    h("p.prompt", p.text),
    h("p.muted.why", `Rule ${p.why}`),
    h("div.choices", buttons),
    odds.length ? h("div#dr-odds.dr-odds", h("h4", "The odds"), odds) : null,
    h("p#dr-error.errors.hidden"));
}

// The exact odds of an option that rolls dice (games/devilsrun/pending.py): a shot's damage
// as a chart, a D10 test or the Repair roll as a line.
function optionOdds(o) {
  const d = o.odds;
  const row = (text, chart) => h("figure.dr-option-odds", { dataset: { option: String(o.value) } },
    h("figcaption", text), chart);
  if (d.what === "shot") {
    const wreck = d.p_wreck !== undefined ? `; P(wrecked) ${pct(d.p_wreck)}` : "";
    return row(`${o.text}: ${d.dice} D10 at BS ${d.bs}${d.saves ? "" : ", no saves"}; ` +
      `expected damage ${d.expected_damage.toFixed(2)}${wreck}`,
      barChart(d.distribution, { width: 240, height: 110, label: "damage", atLeast: d.p_at_least }));
  }
  if (d.what === "test") return row(`${o.text}: the ${d.test} succeeds ${pct(d.p_success)} (${d.exact.p_success})`, null);
  return row(`${o.text}: repaired ${pct(d.p_repaired)} (${d.exact.p_repaired})`, null);
}

function outcomeText(v) {
  const o = v.outcome;
  const head = o.winner === null ? "A draw" : `${v.players[o.winner].name} win`;
  return `${head}: ${o.reason} (turn ${o.rounds}).`;
}

function drawDice(v) {
  fill(document.getElementById("dr-dice"), [...v.dice].reverse().map((d) => h("li", d.text)));
}

function drawLog(v) {
  const list = document.getElementById("dr-log");
  fill(list, [...v.log].reverse().map((l) => h("li", { dataset: { seq: String(l.seq) } },
    h("span.rule", { title: l.why }, l.rule), l.text)));
}

// ---------------------------------------------------------------------------------- replay
async function showStep(step) {
  let v;
  try {
    v = await api.get(`/api/games/${encodeURIComponent(gid)}/replay?step=${step}`);
  } catch (e) {
    flash(e.message);
    return;
  }
  state.replay = v.replay;
  const { steps } = v.replay;
  const go = (n) => () => showStep(Math.max(0, Math.min(steps, n)));
  document.getElementById("dr-result").classList.toggle("hidden", !v.outcome);
  drawBoard(v);
  drawCards(v);
  drawDice(v);
  drawLog(v);
  document.getElementById("dr-turn").textContent = `Replay · turn ${v.turn}`;
  fill(document.getElementById("dr-decision"),
    h("h3", "Stepping through the game"),
    h("p#dr-replay-step", `After ${step} of ${steps} choices`),
    h("div.row",
      h("button", { type: "button", title: "The start", onclick: go(0) }, "« Start"),
      h("button#dr-replay-back", { type: "button", onclick: go(step - 1) }, "◀ Back"),
      h("button#dr-replay-next", { type: "button", onclick: go(step + 1) }, "Next ▶"),
      h("button", { type: "button", onclick: go(steps) }, "End »"),
      h("button", { type: "button", onclick: () => { state.replay = null; apply(state.view, true); } }, "Leave")));
}

function apply(v, force = false) {
  if (!force && state.view && v.version < state.view.version) return;
  state.view = v;
  if (state.replay) return;
  document.body.dataset.version = String(v.version);
  document.body.dataset.status = v.status;
  document.getElementById("dr-title").textContent =
    `Devil's Run: ${v.mission === "hell-on-wheels" ? "Hell on Wheels" : "The Devil's Run"}`;
  const you = v.your_seat === null ? "watching" : `you are ${v.players[v.your_seat].name}`;
  document.getElementById("dr-turn").textContent = `Turn ${v.turn} · ${you}`;
  const result = document.getElementById("dr-result");
  if (v.outcome) {
    result.textContent = outcomeText(v);
    result.classList.remove("hidden");
  } else {
    result.classList.add("hidden");
  }
  drawBoard(v);
  drawCards(v);
  drawDice(v);
  drawLog(v);
  drawDecision(v);
  drawObjectives(v);
  drawPicks(v);
}

/** The mission's scoreboard with the gangs' names and its brief (view.scoreboard, view.brief). */
function drawObjectives(v) {
  const gangOf = (seat) => (v.players[seat] || {}).gang;
  fill(document.getElementById("dr-scoreboard"), scoreboardNode(v.scoreboard, (seat) => COLOURS[gangOf(seat)] || "#888"));
  const body = document.getElementById("dr-brief-body");
  if (v.brief && body.dataset.mission !== v.brief.id) {
    body.dataset.mission = v.brief.id;
    fill(body, briefNodes(v.brief, { heading: "h4" }));
  }
}

// -------------------------------------------------------------------- playing on the road
// A decision about a square (where to deploy: the lettered or numbered squares; where the stash
// goes; where to evade to) marks its squares on the road to tap. With a mouse a click chooses;
// on a touch screen the first tap picks the square (the Confirm bar says what it would do) and
// a second tap on it, or Confirm, chooses it. Several choices on one square (which vehicle to
// deploy there) are the Confirm bar's buttons. The numbered buttons stay.
let lastPointer = "mouse";
window.addEventListener("pointerdown", (e) => { lastPointer = e.pointerType || "mouse"; }, true);
const touchScreen = () => matchMedia("(hover: none), (pointer: coarse)").matches;

function drawPicks(v) {
  const p = v.pending;
  const svg = document.querySelector("#dr-board svg");
  delete document.body.dataset.picked;
  if (!p || !v.your_turn || !svg) return;
  const bySquare = new Map();
  for (const o of p.options) {
    if (!o.square) continue;
    const k = `${o.square[0]},${o.square[1]}`;
    if (!bySquare.has(k)) bySquare.set(k, { square: o.square, mark: o.mark || "", options: [] });
    bySquare.get(k).options.push(o);
  }
  if (!bySquare.size) return;
  const b = v.board;
  const sx = (x) => LEFT + x * CELL;
  const sy = (y) => TOP + (b.front_end - 1 - y) * CELL;
  const box = document.getElementById("dr-decision");
  const label = h("span.pick-label", "nothing yet");
  const buttons = h("span.pick-buttons");
  const bar = h("div.dr-confirm.empty", { role: "group", "aria-label": "the square picked on the road" },
    h("span.muted.small", "Picked: "), label, buttons);
  let selected = null;
  const marks = new Map();
  const choose = (o) => submit(o.value);
  const select = (k) => {
    selected = k;
    for (const [key, el] of marks) el.classList.toggle("selected", key === k);
    const it = bySquare.get(k);
    bar.classList.toggle("empty", !it);
    document.body.dataset.picked = k || "";
    label.textContent = it ? (it.options.length === 1 ? it.options[0].text : `square ${it.mark || k}`) : "nothing yet";
    fill(buttons, it ? it.options.map((o, i) => h("button.dr-confirm-go", {
      type: "button", class: `dr-confirm-go${i === 0 ? " primary" : ""}`, onclick: () => choose(o),
    }, it.options.length === 1 ? "Confirm" : o.text)) : []);
  };
  const g = s("g", { class: "dr-picks" });
  for (const [k, it] of bySquare) {
    const [x, y] = it.square;
    const mark = s("g", { class: "dr-pick", "data-square": k, "data-pick": k },
      s("rect", { x: sx(x) + 1.5, y: sy(y) + 1.5, width: CELL - 3, height: CELL - 3, rx: 4 }),
      it.mark ? s("text", { x: sx(x) + CELL / 2, y: sy(y) + CELL / 2 + 5, "text-anchor": "middle" }, it.mark) : null,
      s("title", {}, it.options.map((o) => o.text).join("; ")));
    mark.addEventListener("click", () => {
      const mouse = lastPointer === "mouse" && !touchScreen();
      if (it.options.length === 1 && (mouse || selected === k)) choose(it.options[0]);
      else select(k);
    });
    marks.set(k, mark);
    g.append(mark);
  }
  svg.append(g);
  const choices = box.querySelector(".choices");
  const hint = h("p.dr-board-hint", touchScreen()
    ? "Tap a marked square on the road to pick it; tap it again (or Confirm) to choose it."
    : "Click a marked square on the road to choose it.");
  if (choices) choices.before(hint, bar);
  else box.append(hint, bar);
}

// ---------------------------------------------------------------------------------- acting
async function submit(choice) {
  const v = state.view;
  if (!v || state.busy) return;
  state.busy = true;
  document.getElementById("dr-decision").classList.add("busy");
  try {
    apply(await api.post(`/api/games/${encodeURIComponent(gid)}/decisions`,
      { token: token || "", version: v.version, choice }));
  } catch (e) {
    flash(e.message);
    if (e.status === 409) await refresh();
  } finally {
    state.busy = false;
    document.getElementById("dr-decision").classList.remove("busy");
  }
}

document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement || !/^[1-9]$/.test(ev.key)) return;
  const b = document.querySelector(`#dr-decision button.choice[data-index="${ev.key}"]`);
  if (b) b.click();
});

// ------------------------------------------------------------------------------- live view
async function refresh() {
  try {
    apply(await api.get(viewUrl()));
  } catch (e) {
    flash(e.message);
  }
}

function poll() {
  if (state.pollTimer) return;
  state.pollTimer = setInterval(refresh, 2000);
}

function connect() {
  const proto = window.location.protocol === "https:" ? "wss" : "ws";
  const t = token ? `?token=${encodeURIComponent(token)}` : "";
  let ws;
  try {
    ws = new WebSocket(`${proto}://${window.location.host}/api/games/${encodeURIComponent(gid)}/ws${t}`);
  } catch {
    poll();
    return;
  }
  state.ws = ws;
  const conn = document.getElementById("dr-conn");
  ws.onopen = () => {
    conn.classList.add("live");
    state.retry = 1000;
    if (state.pollTimer) {
      clearInterval(state.pollTimer);
      state.pollTimer = null;
    }
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "view") apply(msg.view);
    else if (msg.type === "chat") { if (state.chat) state.chat.onFrame(msg); }
    else if (msg.type === "error") flash(msg.detail);
  };
  ws.onclose = () => {
    conn.classList.remove("live");
    poll();
    setTimeout(connect, spread(state.retry));
    state.retry = Math.min(state.retry * 2, 15000);
  };
}

async function start() {
  await refresh();
  if (state.view) state.chat = mountChat({ gid, token, before: document.querySelector(".dr-log-panel") });
  document.body.dataset.ready = "1";
  connect();
}

start();
