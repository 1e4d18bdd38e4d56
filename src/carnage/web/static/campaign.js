// The campaign page. At /campaigns: the campaigns in the database and the form that starts one
// (mode, its options, teams from this browser's saved teams or a team file's JSON). At
// /campaigns/<id>: standings, the standings chart (Championship Points after each game),
// the schedule, the next event (who plays each seat, then its game on the table), the
// decision waiting for this seat (shown to its seat only), and each team's roster with its
// vehicles' dents, injuries and losses; a seat's player changes its roster between games.
// Every write sends the version the page last saw; a 409 says the campaign changed: reload.
import {api, ApiError, request} from "/static/js/api.js";
import {h, fill, s, seatColour, humanise} from "/static/js/util.js";

const BOTS = ["heuristic", "random", "search:easy", "search:normal", "search:hard"];
const el = (id) => document.getElementById(id);
const errorBox = () => el("campaign-error");

function showError(e) {
  errorBox().textContent = e instanceof ApiError || e instanceof Error ? e.message : String(e);
}

function clearError() {
  errorBox().textContent = "";
}

/** Seat tokens this browser holds, per campaign. */
const seatTokens = {
  key: (cid) => `carnage.campaign.${cid}`,
  get(cid) {
    try {
      return localStorage.getItem(this.key(cid));
    } catch {
      return null;
    }
  },
  set(cid, token) {
    try {
      localStorage.setItem(this.key(cid), token);
    } catch {
      /* private mode: the link in the address bar still works */
    }
  },
};

/** Owner tokens of the campaigns this browser started (or opened by their owner link). */
const ownerTokens = {
  key: "carnage.campaign-owners",
  all() {
    try {
      return JSON.parse(localStorage.getItem(this.key) || "{}") || {};
    } catch {
      return {};
    }
  },
  get(cid) {
    return this.all()[cid] || null;
  },
  set(cid, token) {
    try {
      localStorage.setItem(this.key, JSON.stringify({...this.all(), [cid]: token}));
    } catch {
      /* private mode: the owner link in the address bar still works */
    }
  },
};

/** Every campaign token this browser holds (owners' and seats'), for the campaign list. */
function heldTokens() {
  const out = Object.values(ownerTokens.all());
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("carnage.campaign.")) out.push(localStorage.getItem(k));
    }
  } catch {
    /* private mode: only the public campaigns are listed */
  }
  return out.filter(Boolean).slice(0, 400);
}

// -- /campaigns --------------------------------------------------------------------------------
async function listPage() {
  el("new-campaign").classList.remove("hidden");
  el("campaign-list").classList.remove("hidden");
  const [modes, teams] = await Promise.all([
    api.get("/api/campaign-modes"), api.teams().catch(() => []), refreshList()]);
  const pick = el("mode");
  pick.replaceChildren(...modes.map((m) => h("option", {value: m.id}, m.name)));
  const byId = Object.fromEntries(modes.map((m) => [m.id, m]));
  const rows = el("team-rows");
  const showOptions = () => {
    const m = byId[pick.value];
    fill(el("mode-options"), ...Object.entries(m.options).map(([k, v]) => optionField(k, v, m)));
    fitCans(m, teams, rows);
  };
  pick.addEventListener("change", showOptions);
  const addRow = () => {
    rows.append(teamRow(teams, rows.children.length, () => fitCans(byId[pick.value], teams, rows)));
    fitCans(byId[pick.value], teams, rows);
  };
  addRow();
  addRow();
  showOptions();
  el("add-team").addEventListener("click", addRow);
  el("new-campaign-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearError();
    let body;
    try {
      body = {mode: pick.value, options: readOptions(byId[pick.value]), teams: readTeams(rows)};
    } catch (e) {
      showError(e);
      return;
    }
    el("create-campaign").disabled = true;
    try {
      const made = await api.post("/api/campaigns", body);
      ownerTokens.set(made.id, made.owner_token);
      made.seats.forEach((x, i) => {
        if (i === 0) seatTokens.set(made.id, x.token);
      });
      created(made);
      await refreshList();
    } catch (e) {
      showError(e);
    } finally {
      el("create-campaign").disabled = false;
    }
  });
}

/** A campaign in words: its mode and its teams (never its id). */
function campaignName(mode, teams) {
  return `${mode}: ${teams.join(" v ")}`;
}

/** The campaigns this browser may see, newest first, each named by its mode and teams. */
async function refreshList() {
  const campaigns = await request("GET", "/api/campaigns", undefined,
    heldTokens().length ? {"X-Owner-Token": heldTokens().join(",")} : {});
  fill(el("campaigns").querySelector("tbody"), ...campaigns.slice().reverse().map((c) =>
    h("tr", {"data-campaign": c.id},
      h("td", h("a", {href: `/campaigns/${c.id}`, title: `Campaign ${c.id}`}, campaignName(c.mode_name, c.teams))),
      h("td", c.mode_name), h("td", c.teams.join(", ")), h("td", String(c.games)),
      h("td", c.finished ? "over" : "running"))));
  return campaigns;
}

/** The Starting Cans follow the chosen saved teams (the costliest one, at least the mode's
 * default) until the player types a number of their own. */
function fitCans(mode, teams, rows) {
  const input = document.querySelector('[name="opt-start_cans"]');
  if (!input || !mode || input.dataset.touched) return;
  const byId = Object.fromEntries(teams.map((t) => [t.id, t]));
  const costs = [...rows.querySelectorAll(".team-pick")].map((x) => byId[x.value]?.total_cans || 0);
  input.value = String(Math.max(Number(mode.options.start_cans) || 0, ...costs));
}

function optionField(key, value, mode = {}) {
  const label = (mode.labels && mode.labels[key]) || humanise(key);
  const choices = mode.choices && mode.choices[key];
  if (Array.isArray(value) && Array.isArray(choices)) {
    // A picklist of the mode's events: tick the ones the season plays, in this order.
    const chosen = new Set(value);
    return h("fieldset.picklist", {"data-option": key},
      h("legend", label),
      ...choices.map((c) => h("label.pick", h("input", {type: "checkbox", name: `opt-${key}`,
                                                         value: c.value, checked: chosen.has(c.value)}), c.name)));
  }
  if (key === "start_cans") {
    const input = h("input", {type: "number", name: `opt-${key}`, value: String(value), min: "1", step: "1",
      title: "Follows the costliest chosen team until you type a number"});
    input.addEventListener("input", () => { input.dataset.touched = "1"; });
    return h("label", label, input);
  }
  if (typeof value === "boolean") {
    return h("label", h("input", {type: "checkbox", name: `opt-${key}`, checked: value}), label);
  }
  if (typeof value === "number" || value === null) {
    return h("label", label, h("input", {type: "number", name: `opt-${key}`,
                                          value: value === null ? "" : String(value), step: "1",
                                          placeholder: value === null ? "none" : null}));
  }
  if (Array.isArray(value)) {
    return h("label", label, h("input", {type: "text", name: `opt-${key}`, value: value.join(","),
                                          size: 40, title: "comma-separated"}));
  }
  return h("label", label, h("input", {type: "text", name: `opt-${key}`, value: String(value ?? "")}));
}

function readOptions(mode) {
  const out = {};
  for (const [k, v] of Object.entries(mode.options)) {
    const input = document.querySelector(`[name="opt-${k}"]`);
    if (!input) continue;
    if (Array.isArray(v) && mode.choices && mode.choices[k]) {
      out[k] = [...document.querySelectorAll(`[name="opt-${k}"]:checked`)].map((x) => x.value);
      if (!out[k].length) throw new Error(`${(mode.labels && mode.labels[k]) || humanise(k)}: tick at least one`);
    }
    else if (typeof v === "boolean") out[k] = input.checked;
    else if (typeof v === "number" || v === null) {
      if (input.value.trim() !== "") out[k] = Number(input.value);
    }
    else if (Array.isArray(v)) out[k] = input.value.split(",").map((x) => x.trim()).filter(Boolean);
    else if (input.value.trim() !== "") out[k] = input.value.trim();
  }
  return out;
}

function teamRow(teams, i, changed = () => {}) {
  const select = h("select.team-pick", h("option", {value: ""}, "— paste a team's JSON —"),
    ...teams.map((t) => h("option", {value: t.id}, `${t.name} (${t.total_cans} cans)`)));
  if (teams[i]) select.value = teams[i].id;
  const text = h("textarea.team-json", {placeholder: '{"name": "...", "cans": 30, "vehicles": [...]}'});
  const sync = () => text.classList.toggle("hidden", select.value !== "");
  select.addEventListener("change", () => { sync(); changed(); });
  sync();
  const row = h("div.team-row.col", h("div.row", h("b", `Team ${i + 1}`), select,
    h("button.small", {type: "button", onclick: () => { row.remove(); changed(); }}, "Remove")), text);
  return row;
}

function readTeams(rows) {
  return [...rows.querySelectorAll(".team-row")].map((row, i) => {
    const id = row.querySelector(".team-pick").value;
    if (id) return {team_id: id};
    const raw = row.querySelector(".team-json").value.trim();
    try {
      return {team: JSON.parse(raw)};
    } catch {
      throw new Error(`teams.${i}: the team's JSON does not parse`);
    }
  });
}

function created(made) {
  const box = el("created");
  box.classList.remove("hidden");
  const abs = (u) => `${window.location.origin}${u}`;
  fill(box, h("p", "Campaign ", h("a#open-campaign", {href: made.seats[0].url}, "open it"),
                   " started. Send each player their seat's link, and keep the owner's link " +
                   "(they are not shown again):"),
    h("ul", ...made.seats.map((x) => h("li.linkbox", `Seat ${x.seat + 1}`,
      h("input", {readOnly: true, value: abs(x.url), "data-seat": String(x.seat)}),
      h("a", {href: x.url}, "open"))),
      h("li.linkbox", "Owner", h("input", {readOnly: true, value: abs(made.owner_url),
                                          "data-owner": "1"}),
        h("a", {href: made.owner_url}, "open"))));
  document.body.dataset.created = made.id;
}

// -- /campaigns/<id> ---------------------------------------------------------------------------
const state = {cid: null, token: null, owner: null, view: null, timer: null};

function ownerHeaders() {
  return state.owner ? {"X-Owner-Token": state.owner} : {};
}

function url() {
  const t = state.token ? `?token=${encodeURIComponent(state.token)}` : "";
  return `/api/campaigns/${encodeURIComponent(state.cid)}${t}`;
}

async function reload() {
  try {
    render(await request("GET", url(), undefined, ownerHeaders()));
  } catch (e) {
    showError(e);
  }
}

async function write(path, body) {
  clearError();
  try {
    const payload = {version: state.view.version, ...body};
    if (state.token && !path.endsWith("/claim")) payload.token = state.token;
    const out = await request("POST", `/api/campaigns/${encodeURIComponent(state.cid)}/${path}`,
      payload, ownerHeaders());
    return out;
  } catch (e) {
    showError(e);
    if (e.status === 409) await reload();
    return null;
  }
}

function render(v) {
  state.view = v;
  document.body.dataset.version = String(v.version);
  document.body.dataset.games = String(v.summary.results.length);
  el("title").textContent = campaignName(v.mode_name, v.seats.map((x) => x.team));
  document.title = `Carnage — ${el("title").textContent}`;
  el("version").textContent = `version ${v.version}`;
  el("whoami").textContent = v.you === null ? "You are watching this campaign"
    : `You are seat ${v.you + 1}: ${v.seats.find((x) => x.seat === v.you)?.team ?? ""}`;
  renderSeats(v);
  renderStandings(v);
  drawChart(v.chart);
  renderSchedule(v);
  renderEvent(v);
  renderRosters(v);
  clearTimeout(state.timer);
  if (v.event && (v.event.phase === "playing" || (v.event.waiting && !v.event.ask))) {
    state.timer = setTimeout(reload, 2500); // the table game or another seat is deciding
  }
}

function renderSeats(v) {
  fill(el("seats"), ...v.seats.map((x) => {
    const me = x.seat === v.you;
    return h("span.seat", {style: {color: seatColour(x.seat)}},
      `Seat ${x.seat + 1}: ${x.team}`, me ? " (you)" : "",
      !x.claimed && v.owner ? h("button.small.claim", {"data-seat": String(x.seat), onclick: () => claim(x.seat)},
                     "Take this seat") : null);
  }));
}

async function claim(seat) {
  const out = await write(`seats/${seat}/claim`, {});
  if (!out) return;
  state.token = out.token;
  seatTokens.set(state.cid, out.token);
  history.replaceState(null, "", out.url);
  await reload();
}

function renderStandings(v) {
  // The columns the mode's standings have, its score (Championship Points, or the wins of
  // a side in Savage Highways) first.
  const rows = v.summary.standings;
  const score = v.chart.measure === "wins" ? "wins" : "cp";
  const cols = [[score, score === "wins" ? "Wins" : "CP"], ["role", "Side"], ["games", "Games"],
    ["finishes", "Places"], ["cans", "Cans"], ["spent", "Spent"], ["rp", "RP"]]
    .filter(([k], i) => i === 0 || rows.some((r) => r[k] !== undefined && r[k] !== null));
  fill(el("standings").querySelector("thead"), h("tr", h("th", "#"), h("th", "Team"),
    ...cols.map(([, label]) => h("th", label))));
  const cell = (r, k) => (Array.isArray(r[k]) ? r[k].join(", ") : String(r[k] ?? ""));
  fill(el("standings").querySelector("tbody"), ...rows.map((r, i) =>
    h("tr", {"data-seat": String(r.seat)}, h("td", String(i + 1)),
      h("td", h("span.swatch", {style: {background: seatColour(r.seat)}}), " ", r.team),
      ...cols.map(([k], j) => h(j === 0 ? "td.cp" : "td", k === "role" ? humanise(cell(r, k)) : cell(r, k))))));
  el("chart").querySelector("figcaption").textContent = score === "wins"
    ? "Games won over the campaign" : "Championship Points over the season";
  // Titles: {title: [teams]} once the campaign is over; the leader while it runs.
  const titles = v.summary.titles && !Array.isArray(v.summary.titles) ? v.summary.titles : {};
  const lines = Object.entries(titles).filter(([, who]) => who && who.length)
    .map(([title, who]) => `${humanise(title)}: ${who.join(", ")}`);
  if (!lines.length && (v.summary.champion || []).length) {
    lines.push(`Leading: ${v.summary.champion.join(", ")}`);
  }
  el("titles").textContent = lines.join("; ");
}

/** A line per seat: its Championship Points after each game (the first point: before any).
 * Each point is <circle data-seat data-game data-cp>. */
export function drawChart(chart) {
  const fig = el("chart");
  fig.querySelector("svg")?.remove();
  const w = 420, hgt = 220, pad = {l: 36, r: 12, t: 10, b: 28};
  const n = Math.max(1, chart.games);
  const most = Math.max(5, ...chart.series.flatMap((x) => x.cp));
  const x = (i) => pad.l + (w - pad.l - pad.r) * (i / n);
  const y = (v) => hgt - pad.b - (hgt - pad.t - pad.b) * (v / most);
  const root = s("svg", {class: "standings-chart", viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt,
                         role: "img", "aria-label": "Championship Points over the season",
                         "data-games": chart.games});
  for (const f of [0, 0.5, 1]) {
    const v = Math.round(most * f);
    root.append(s("line", {class: "grid", x1: pad.l, x2: w - pad.r, y1: y(v), y2: y(v)}),
                s("text", {x: pad.l - 6, y: y(v) + 4, "text-anchor": "end"}, String(v)));
  }
  for (let i = 0; i <= n; i++) {
    root.append(s("text", {x: x(i), y: hgt - 8, "text-anchor": "middle"}, i === 0 ? "start" : `G${i}`));
  }
  for (const line of chart.series) {
    const colour = seatColour(line.seat);
    root.append(s("polyline", {stroke: colour, "data-seat": line.seat,
                               points: line.cp.map((v, i) => `${x(i)},${y(v)}`).join(" ")}));
    line.cp.forEach((v, i) => root.append(s("circle", {
      cx: x(i), cy: y(v), r: 3.5, fill: colour, "data-seat": line.seat, "data-game": i, "data-cp": v},
      s("title", {}, `${line.team} after ${i === 0 ? "no games" : `game ${i}`}: ${v} CP`))));
  }
  fig.append(root);
}

function renderSchedule(v) {
  // Seasons list games; a Televised Season lists its Televised Events (with the game each
  // was played in).
  let marked = false;
  fill(el("schedule"), ...v.summary.schedule.map((e) => {
    const isNext = !e.played && !marked;
    if (isNext) marked = true;
    const label = e.event !== undefined ? `Event ${e.event}` : `Game ${e.game}`;
    const scenario = e.scenario_name || humanise(e.played_as || e.scenario || e.kind || "");
    return h(`li${e.played ? ".played" : ""}${isNext ? ".next" : ""}`,
      {"data-game": String(e.game ?? ""), "data-event": String(e.event ?? "")},
      `${label}: ${scenario}`, e.forced ? " (the Revolution)" : "",
      e.played ? " — played " : "", e.played && e.game_id
        ? h("a", {href: `/games/${e.game_id}/replay`}, "replay") : null);
  }));
}

function renderEvent(v) {
  el("event-panel").classList.remove("hidden");
  const box = el("event");
  const gone = v.event && v.event.phase === "gone"; // its table game was deleted
  const ev = gone ? null : v.event;
  if (!ev) {
    if (v.summary.finished) {
      fill(box, h("p", "The campaign is over."));
      return;
    }
    const next = v.summary.next;
    const held = new Set(v.seats.filter((x) => x.claimed).map((x) => x.seat));
    const rows = v.seats.map((x) => h("label", `Seat ${x.seat + 1} (${x.team})`,
      h("select.controller", {"data-seat": String(x.seat)},
        held.has(x.seat) ? h("option", {value: "human", selected: x.seat === v.you}, "Human (its player)") : null,
        ...BOTS.map((b) => h("option", {value: b, selected: x.seat !== v.you && b === "heuristic"},
                             `${humanise(b)} bot`)))));
    const rounds = h("input#max-rounds", {type: "number", min: "1", max: "60", placeholder: "default"});
    // A Televised Season's meeting (p.157): who is present, or a Wasteland Skirmish instead.
    const meeting = v.mode === "televised" ? h("div.row#meeting", h("span", "Present:"),
      ...v.seats.map((x) => h("label", h("input.present", {type: "checkbox", checked: true,
                                                           "data-seat": String(x.seat)}), x.team)),
      h("label", "Play", h("select#skirmish", h("option", {value: ""}, "the next Televised Event"),
        h("option", {value: "roll"}, "a Wasteland Skirmish (rolled)")))) : null;
    fill(box, gone ? h("p.muted#gone", "The event's table game was deleted: start it again.") : null,
      h("p", `Game ${next.game}: `, h("b", next.label && next.label !== next.scenario ? next.label : next.scenario_name || humanise(next.scenario))),
      meeting, h("div.row", ...rows), h("div.row", h("label", "Max rounds", rounds), h("span.grow"),
        h("button.primary#play-next", {onclick: playNext}, "Play the next event")));
    return;
  }
  const parts = [h("p", `Game ${ev.event}: `, h("b", humanise(ev.scenario ?? "")), ` — ${{
    pregame: "decisions before the game", playing: "being played on the table",
    post: "after the game"}[ev.phase] ?? ev.phase}`)];
  if (ev.url) {
    parts.push(h("p", h("a#game-link", {href: ev.url}, ev.phase === "playing" && v.you !== null
      ? "Play your seat on the table" : "Watch the game on the table")));
  }
  if (ev.ask) parts.push(askForm(ev.ask));
  else if (ev.waiting) {
    parts.push(h("p.muted#waiting", `Waiting for ${ev.waiting.team || `seat ${ev.waiting.seat + 1}`} to decide.`));
  }
  fill(box, ...parts);
}

async function playNext() {
  const controllers = [...document.querySelectorAll("select.controller")].map((x) => x.value);
  const mr = el("max-rounds").value.trim();
  const body = {controllers, ...(mr ? {max_rounds: Number(mr)} : {})};
  const boxes = [...document.querySelectorAll("input.present")];
  const skirmish = el("skirmish")?.value || "";
  if (boxes.some((b) => !b.checked) || skirmish) {
    body.request = {present: boxes.filter((b) => b.checked).map((b) => Number(b.dataset.seat)),
                    ...(skirmish ? {skirmish} : {})};
  }
  el("play-next").disabled = true;
  const out = await write("next", body);
  if (!out && el("play-next")) el("play-next").disabled = false;
  if (out) render(out);
}

function askForm(ask) {
  const choose = async (value) => {
    const out = await write("steps", {value});
    if (out) render(out);
  };
  const where = ask.page ? ` (${ask.rule ?? ""} p.${ask.page})` : ask.rule ? ` (${ask.rule})` : "";
  const controls = [];
  if (Array.isArray(ask.options)) {
    controls.push(h("div.row", ...ask.options.map((o) => h("button.option", {
      "data-value": String(o.value), onclick: () => choose(o.value)}, o.label ?? String(o.value)))));
  }
  if (Array.isArray(ask.range)) {
    const [lo, hi] = ask.range;
    const input = h("input#ask-number", {type: "number", min: String(lo), max: String(hi), value: String(lo)});
    controls.push(h("div.row", input, h("button.option#ask-decide",
      {onclick: () => choose(Number(input.value))}, "Decide")));
  }
  if (ask.kind === "roster" || (!Array.isArray(ask.options) && !Array.isArray(ask.range))) {
    // A free-form answer: a whole team file (the workshop), checked by the mode.
    const mine = state.view.summary.teams.find((t) => t.seat === ask.seat);
    const text = h("textarea#ask-json", mine && mine.spec ? JSON.stringify(mine.spec, null, 2) : "");
    controls.push(h("div.col", h("span.muted.small", "Or send a new roster (the team file's JSON):"), text,
      h("button#ask-send", {onclick: () => {
        try {
          choose(JSON.parse(text.value));
        } catch {
          showError(new Error("value: the JSON does not parse"));
        }
      }}, "Send this roster")));
  }
  return h("div.ask#ask", {"data-kind": ask.kind}, h("p", h("b", ask.prompt), h("span.muted.small", where),
    ask.secret ? h("span.badge.warn", " secret") : null), ...controls);
}

function careerText(c) {
  if (!c) return null;
  const bits = [];
  if (c.dents) bits.push(`${c.dents} dent${c.dents === 1 ? "" : "s"}`);
  if (c.injuries?.length) bits.push(`injuries: ${c.injuries.map(humanise).join(", ")}`);
  if (c.crew_loss) bits.push(`Crew −${c.crew_loss}`);
  if (c.hull_loss) bits.push(`Hull −${c.hull_loss}`);
  if (c.weakened_chassis) bits.push(`weakened chassis ${c.weakened_chassis}`);
  if (c.audience_favourite) bits.push(`audience favourite ${c.audience_favourite}`);
  if (c.lost?.length) bits.push(`lost: ${c.lost.map(humanise).join(", ")}`);
  return bits.length ? h("div.career.small", bits.join("; ")) : null;
}

function legacyText(veh) {
  // A Gaslands: Legacy vehicle: its rating, corroded and filled hull boxes, mutations, notes.
  if (veh.rating === undefined) return null;
  const bits = [`rating ${veh.rating}`, `corrosion ${veh.corroded} of ${veh.hull_boxes} hull boxes`];
  if (veh.filled) bits.push(`${veh.filled} filled in`);
  if (veh.mutations?.length) bits.push(`mutations: ${veh.mutations.map(humanise).join(", ")}`);
  if (veh.notes?.length) bits.push(`notes: ${veh.notes.map(humanise).join(", ")}`);
  return h("div.legacy.small", bits.join("; "));
}

function templatesText(rows) {
  // A Legacy team's own movement templates as they now are (gears: T shift, H hazard).
  return h("div.templates.small", h("b", "Templates: "), rows.map((r) =>
    `${r.name} [${r.icons.join(" / ")}]${r.exits.length > 1 ? ` exits: ${r.exits.join(", ")}` : ""}`).join("; "));
}

function renderClues(v) {
  const clues = v.summary.clues || [];
  if (!clues.length) return null;
  return h("div.clues.small", h("b", "Clues you may read: "),
    clues.map((c) => `${c.title} (${c.code}): ${c.text}`).join(" — "));
}

// A seat's secret record in words ("3 Resistance Points (Resistance Broadcast)"), never its
// field names.
const SECRET_WORDS = {
  rp: (d) => `${d.rp} Resistance Point${d.rp === 1 ? "" : "s"}`,
  sabotage: (d) => `${d.tokens} Sabotage Token${d.tokens === 1 ? "" : "s"}${d.number ? ` for Televised Event ${d.number}` : ""}`,
};
const NOT_SAID = new Set(["hidden", "seen_by", "seat", "why", "number"]);

export function secretText(r) {
  const d = r.data || {};
  const say = SECRET_WORDS[r.kind];
  const main = say ? say(d) : `${humanise(r.kind)}: ${Object.entries(d).filter(([k]) => !NOT_SAID.has(k))
    .map(([k, x]) => `${humanise(k).toLowerCase()} ${typeof x === "object" ? JSON.stringify(x) : x}`).join(", ")}`;
  return d.why ? `${main} (${d.why})` : main;
}

function renderRosters(v) {
  el("rosters-panel").classList.remove("hidden");
  const between = !v.event;
  fill(el("rosters"), ...v.summary.teams.map((t) => {
    const mine = t.seat === v.you;
    const card = h(`div.roster${mine ? ".mine" : ""}`, {"data-seat": String(t.seat)},
      h("h3", h("span.swatch", {style: {background: seatColour(t.seat)}}), ` ${t.team}`),
      h("p.muted.small", t.rating !== undefined
        ? `Team Rating ${t.rating}; ${t.victories} victor${t.victories === 1 ? "y" : "ies"}; corrosion ${t.corrosion}`
        : (t.stash !== undefined
          ? `${t.cost ?? "?"} Cans of vehicles; stash ${t.stash}` : `${t.cost ?? "?"} of ${t.cans} Cans`) +
          (t.sponsor ? `; sponsor ${humanise(t.sponsor)}` : "")),
      h("ul.vehicles", ...t.vehicles.map((veh) => h("li", {"data-vehicle": veh.name},
        h("b", veh.name), ` (${humanise(veh.type)}): `,
        [...veh.weapons, ...veh.upgrades].map(humanise).join(", ") || "unarmed",
        veh.perks.length ? `; perks: ${veh.perks.map(humanise).join(", ")}` : "",
        careerText(veh.career), legacyText(veh)))),
      t.templates ? templatesText(t.templates) : null);
    const secrets = mine ? (v.summary.secrets || []) : [];
    if (secrets.length) {
      // Only this seat is sent these (Resistance Points, Sabotage Tokens ...).
      card.append(h("div.secrets.small", h("b", "Your secrets: "), secrets.map(secretText).join("; ")));
    }
    if (mine) { const clues = renderClues(v); if (clues) card.append(clues); }
    if (mine && between) card.append(rosterEditor(t));
    return card;
  }));
}

function rosterEditor(t) {
  const text = h("textarea#roster-json", t.spec ? JSON.stringify(t.spec, null, 2) : "");
  const problems = h("ul.errors#roster-problems");
  const bill = h("p.small#roster-bill");
  const send = async (dry) => {
    let team;
    try {
      team = JSON.parse(text.value);
    } catch {
      fill(problems, h("li", "team: the JSON does not parse"));
      return;
    }
    const out = await write(`seats/${t.seat}/team`, {team, dry_run: dry});
    if (!out) return;
    const w = out.workshop;
    fill(problems, ...out.problems.map((p) => h("li", p)),
      ...(w ? w.problems.map((p) => h("li.workshop", `workshop: ${p}`)) : []));
    fill(bill, out.ok ? (dry ? "The mode accepts this roster (not saved yet). " : "Saved. ") : "",
      w ? `Workshop (p.164): ${w.lines.map((x) => `${x.action} ${humanise(x.item)} of ${x.vehicle} ` +
        `(${x.cans})`).join("; ") || "no change"} — costs ${w.cost}, ${w.refund} back, ` +
        `${w.stash_after} Cans left.` : "");
    if (!dry && out.ok) await reload();
  };
  return h("details.editor", h("summary", "Change your roster (workshop)"),
    h("p.muted.small", "Edit the team file (or paste the team builder's JSON), check it, then save."),
    text, h("div.row", h("button#roster-check", {onclick: () => send(true)}, "Check"),
      h("button.primary#roster-save", {onclick: () => send(false)}, "Save the roster")), bill, problems);
}

async function campaignPage(cid) {
  state.cid = cid;
  const given = new URLSearchParams(window.location.search).get("token");
  if (given) seatTokens.set(cid, given);
  state.token = given || seatTokens.get(cid);
  const owner = new URLSearchParams(window.location.search).get("owner");
  if (owner) ownerTokens.set(cid, owner);
  state.owner = owner || ownerTokens.get(cid);
  el("campaign").classList.remove("hidden");
  el("reload").addEventListener("click", reload);
  render(await request("GET", url(), undefined, ownerHeaders()));
}

async function main() {
  const m = /^\/campaigns\/([^/]+)\/?$/.exec(window.location.pathname);
  try {
    if (m) await campaignPage(decodeURIComponent(m[1]));
    else await listPage();
  } catch (e) {
    showError(e);
  }
  document.body.dataset.ready = "1";
}

main();
