// The lobby: start a game (scenario, seats, teams), hand out join links, list games.
import { api, seatStore } from "./api.js";
import { briefNodes } from "./objectives.js";
import { copyText, fill, h, humanise, seatColour, seatName } from "./util.js";

const CONTROLLERS = [
  ["human", "Human"],
  ["heuristic", "Heuristic bot"],
  ["random", "Random bot"],
  ["search:easy", "Search bot (easy)"],
  ["search:normal", "Search bot (normal)"],
  ["search:hard", "Search bot (hard)"],
];

const state = { scenarios: [], teams: [], rulesets: [] };
const DEFAULT_SCENARIO = "street-race";


function scenario() {
  const id = document.getElementById("scenario").value;
  const info = state.rulesets.find((r) => r.name === ruleset()) || {};
  const table = (info.random_tables || []).find((t) => t.value === id);
  if (table) return { id, name: `Random ${table.name}`, page: table.page, players: 2, min_players: 2, max_players: null, summary: `Roll a D6 on the ${table.name} table.` };
  return state.scenarios.find((s) => s.id === id) || state.scenarios[0];
}

function seatCount(sc) {
  const asked = Number(document.getElementById("players").value || 2);
  const low = sc.min_players || sc.players || 2;
  const high = sc.max_players == null ? 4 : Math.min(4, sc.max_players);
  return Math.max(low, Math.min(high, asked));
}

// "1,3/2,4" -> [[0,2],[1,3]]; empty -> null; anything else -> an error line.
function parseSides(text) {
  const t = text.trim();
  if (t === "") return null;
  if (!/^\d+(,\d+)*(\/\d+(,\d+)*)+$/.test(t)) throw new Error("Sides: seats of each side, e.g. 1,3/2,4");
  return t.split("/").map((side) => side.split(",").map((n) => Number(n) - 1));
}

function teamOptions(selected) {
  const opts = [h("option", { value: "" }, "Scenario's default team")];
  for (const t of state.teams) {
    const label = `${t.name} — ${t.total_cans}/${t.cans} cans${t.valid ? "" : " (not legal)"}`;
    opts.push(h("option", { value: t.id, selected: t.id === selected }, label));
  }
  return opts;
}

function rulesetInfo() {
  return state.rulesets.find((r) => r.name === ruleset()) || { name: ruleset(), title: "", seat_names: [], own_teams: false, cards: null };
}

// A bot choice says how strong the ladder measured it in this ruleset and how long it
// thinks (RulesetInfo.bots), or that it is not yet rated.
function controllerOption(rs, value, label, selected) {
  const bot = (rs.bots || []).find((b) => b.name === value);
  const text = bot ? `${label} — ${bot.words}` : label;
  return h("option", { value, selected, title: bot && bot.detail ? bot.detail : null }, text);
}

function renderSeats() {
  const sc = scenario();
  const rs = rulesetInfo();
  const box = document.getElementById("seats");
  const old = [...box.querySelectorAll(".seat")].map((row) => ({
    controller: row.querySelector(".controller").value,
    team: (row.querySelector(".team") || {}).value || "",
  }));
  fill(box);
  if (!sc) return;
  for (let seat = 0; seat < seatCount(sc); seat++) {
    const prev = old[seat] || { controller: seat === 0 ? "human" : "heuristic", team: "" };
    // A ruleset that brings its own teams (Ruleset.table.own_teams) names what each seat plays.
    const team = rs.own_teams
      ? h("span.muted.seat-team", rs.seat_names[seat] || "")
      : h("label", "Team ", h("select.team", { name: `team-${seat}` }, teamOptions(prev.team)));
    box.append(
      h("div.seat.row", { dataset: { seat } },
        h("span.seat-name", h("span.swatch", { style: { background: seatColour(seat) } }),
          ` Seat ${seat + 1} · ${rs.seat_names[seat] || seatName(seat)}`),
        h("label", "Driver ",
          h("select.controller", { name: `controller-${seat}` },
            CONTROLLERS.map(([v, l]) => controllerOption(rs, v, l, v === prev.controller)))),
        team,
      ),
    );
  }
  const most = sc && sc.max_players != null ? (sc.max_players === (sc.min_players || sc.players) ? "" : `-${sc.max_players}`) : "+";
  // An overlay's scenarios are its parent's: the page is in the parent's book.
  const book = (rs.parent && state.rulesets.find((r) => r.name === rs.parent)) || rs;
  const page = sc && sc.page != null ? ` · ${book.title.replace(/^Gaslands: /, "")} p.${sc.page}` : "";
  document.getElementById("scenario-info").textContent =
    sc ? `${sc.min_players || sc.players}${most} players${page}${sc.summary ? " · " + sc.summary : ""}` : "";
  // The scenario described from its own data (RulesetScenario.brief): how to win, its rules.
  const brief = document.getElementById("scenario-brief");
  if (brief) {
    brief.hidden = !(sc && sc.brief);
    fill(document.getElementById("scenario-brief-body"), sc && sc.brief ? briefNodes(sc.brief, { heading: "h4" }) : []);
  }
  document.getElementById("sides-label").hidden = rs.own_teams;
  const cards = document.getElementById("ruleset-cards");
  cards.hidden = !rs.cards;
  if (rs.cards) cards.href = rs.cards;
}

function ruleset() {
  const el = document.getElementById("ruleset");
  return el && el.value ? el.value : (state.rulesets[0] || { name: "" }).name;
}

// The rulesets and their scenarios come from the registry (GET /api/rulesets).
async function loadRulesets() {
  state.rulesets = await api.get("/api/rulesets");
  const el = document.getElementById("ruleset");
  const chosen = el.value;
  fill(el, state.rulesets.map((r) => h("option", { value: r.name, selected: r.name === chosen }, r.title)));
}

async function loadScenarios() {
  // Each ruleset lists its scenarios and the tables it may roll one on (Refuelled's three
  // of p.122: the server rolls with the game's seed).
  const rs = ruleset();
  const info = state.rulesets.find((r) => r.name === rs) || {};
  state.scenarios = info.scenarios
    || await api.get(`/api/scenarios?ruleset=${encodeURIComponent(rs)}`);
  fill(document.getElementById("scenario"),
    state.scenarios.map((s) => h("option", { value: s.id }, s.name)),
    (info.random_tables || []).map((t) => h("option", { value: t.value }, `Random: ${t.name} (roll a D6)`)));
  // The book's first game (p.62) is the default wherever the ruleset has it.
  if (state.scenarios.some((s) => s.id === DEFAULT_SCENARIO)) {
    document.getElementById("scenario").value = DEFAULT_SCENARIO;
  }
}

async function loadTeams() {
  try {
    state.teams = await api.teams();
  } catch {
    state.teams = [];
  }
}

function showErrors(lines) {
  fill(document.getElementById("new-game-errors"), lines.map((l) => h("li", l)));
}

async function createGame(ev) {
  ev.preventDefault();
  showErrors([]);
  const sc = scenario();
  const seats = [...document.querySelectorAll("#seats .seat")].map((row) => ({
    controller: row.querySelector(".controller").value,
    team_id: (row.querySelector(".team") || {}).value || null,
  }));
  const seedText = document.getElementById("seed").value.trim();
  if (seedText !== "" && !/^-?\d+$/.test(seedText)) {
    showErrors(["The seed must be a whole number (or empty for a random one)."]);
    return;
  }
  let sides = null;
  try {
    sides = parseSides(document.getElementById("sides").value);
  } catch (e) {
    showErrors([e.message]);
    return;
  }
  const hotseat = document.getElementById("hotseat").checked;
  // At a real table: companion mode, one phone holding every human seat (the companion page).
  const physical = document.getElementById("physical").checked;
  const diceMode = document.getElementById("table-dice").value;
  // Open the table tab now, inside the click, so no popup blocker stops it; it is pointed at
  // the first human seat once the server has made the game.
  const humans = seats.filter((s) => s.controller === "human").length;
  const tab = humans > 0 ? window.open("", "_blank") : null;
  const button = document.getElementById("create-game");
  button.disabled = true;
  try {
    const game = await api.post("/api/games", {
      scenario: sc.id,
      ruleset: ruleset(),
      seed: seedText === "" ? null : Number(seedText),
      seats,
      sides,
      hot_seat: hotseat,
      ...(physical ? {
        physical: true,
        dice: diceMode === "screen" ? "screen" : "table",
        screen_dice: diceMode === "table-skid" ? ["skid_dice"] : [],
      } : {}),
    });
    const links = game.seats.map((st) => ({
      seat: st.seat, controller: st.controller, url: st.url, token: st.token,
    }));
    // Hot-seat: one table page holding every human seat's token (the server takes them
    // comma-separated and lets the page act for whichever of its seats must decide).
    const humanTokens = links.filter((l) => l.token).map((l) => l.token);
    const hotUrl = physical && humanTokens.length
      ? `/companion/${encodeURIComponent(game.id)}?token=${humanTokens.map(encodeURIComponent).join(",")}`
      : hotseat && humanTokens.length > 1
        ? `/games/${encodeURIComponent(game.id)}?token=${humanTokens.map(encodeURIComponent).join(",")}`
        : null;
    seatStore.save(game.id, {
      hotseat: Boolean(hotUrl),
      hotUrl,
      seats: links.map((l) => ({ seat: l.seat, controller: l.controller, url: l.url })),
    });
    showCreated(game, links, hotUrl, seedText !== "", sc.name);
    const first = hotUrl || (links.find((l) => l.token) || {}).url;
    if (tab && first) tab.location.href = first;
    else if (tab) tab.close();
    await refreshGames();
  } catch (e) {
    if (tab) tab.close();
    showErrors([e.message]);
  } finally {
    button.disabled = false;
  }
}

function absolute(url) {
  return new URL(url, window.location.origin).href;
}

function showCreated(game, links, hotUrl, seedAsked = false, title = "Your game") {
  const box = document.getElementById("created");
  box.classList.remove("hidden");
  const rows = links.map((l) => {
    if (!l.token) {
      return h("div.row.seat-link", h("span.swatch", { style: { background: seatColour(l.seat) } }),
        h("b", `${seatName(l.seat)}`), h("span.muted", `${humanise(l.controller)} bot`));
    }
    const input = h("input", { value: absolute(l.url), readonly: true, "aria-label": `join link for seat ${l.seat + 1}` });
    const copy = h("button.small.copy", {
      onclick: async () => {
        const ok = await copyText(input.value);
        copy.textContent = ok ? "Copied!" : "Select and copy";
        input.select();
      },
    }, "Copy");
    return h("div.row.seat-link", { dataset: { seat: l.seat } },
      h("span.swatch", { style: { background: seatColour(l.seat) } }),
      h("b", `${seatName(l.seat)}`),
      h("div.linkbox.grow", input, copy, h("a.button.small.primary", { href: l.url, target: "_blank" }, "Open")));
  });
  const watch = `/games/${game.id}`;
  fill(box,
    h("h3", `${title} is on. Join links (each one is a seat's secret):`),
    rows,
    hotUrl && hotUrl.startsWith("/companion/") ? h("div.row.seat-link.hotseat.companion-link", h("b", "At a real table"),
      h("span.muted", "one phone runs the rules for every human seat: "),
      h("a.button.small.primary", { href: hotUrl, target: "_blank" }, "Open the companion page"))
      : hotUrl ? h("div.row.seat-link.hotseat", h("b", "Hot-seat"),
        h("span.muted", "one screen plays every human seat: "),
        h("a.button.small.primary", { href: hotUrl, target: "_blank" }, "Open the hot-seat table")) : null,
    h("p.small.muted", "Send a link to the friend who takes that seat. Anyone may ",
      h("a", { href: watch, target: "_blank" }, "watch"), " without a link."),
    seedAsked && game.seed === null
      ? h("p.small.muted.seed-note", "Two players share this table, so the server drew the dice "
        + "seed itself (a chosen seed would let its chooser foresee every die); it is shown "
        + "when the game ends.")
      : null);
}

/** Each seat of a listed game in words: its team and colour, and who plays it. */
function seatLines(g) {
  return (g.seats || []).map((s) => {
    const who = s.name || seatName(s.seat);
    const plays = s.controller === "human" ? "a player" : `${humanise(s.controller)} bot`;
    return `${s.team ? `${s.team} (${who})` : who}: ${plays}`;
  });
}

/** The tokens this browser holds for a game (its own seats), joined for the API. */
function tokensOf(mine) {
  const out = [];
  for (const s of (mine && mine.seats) || []) {
    const m = /[?&]token=([^&]+)/.exec(s.url || "");
    if (m) out.push(...decodeURIComponent(m[1]).split(","));
  }
  return [...new Set(out)].join(",");
}

/** A game this browser may abandon or delete: one it holds a seat of, or one of bots only. */
function deletable(g, mine) {
  const bots = (g.seats || []).every((s) => s.controller !== "human");
  return bots || Boolean(tokensOf(mine));
}

async function deleteGame(g, mine) {
  const what = g.status === "finished" ? "Delete this finished game" : "Abandon this game in progress";
  const row = document.querySelector(`#games tr[data-game='${g.id}']`);
  const cell = row ? row.querySelector("td.actions") : null;
  if (!cell || cell.querySelector(".confirm-delete")) return;
  cell.append(h("span.confirm-delete",
    ` ${what}? It cannot be undone. `,
    h("button.small.danger.yes", {
      type: "button",
      onclick: async () => {
        try {
          const t = tokensOf(mine);
          await api.del(`/api/games/${encodeURIComponent(g.id)}${t ? `?token=${encodeURIComponent(t)}` : ""}`);
          try { localStorage.removeItem(seatStore.key(g.id)); } catch { /* optional */ }
          await refreshGames();
        } catch (e) {
          cell.append(h("span.bad", ` ${e.message}`));
        }
      },
    }, "Yes"),
    h("button.small.no", { type: "button", onclick: (e) => e.target.closest(".confirm-delete").remove() }, "No")));
}

// The replay page draws the tabletop board (the registry says which rulesets' games it can
// step through: `replay`); a ruleset with a board of its own steps through a finished game on
// its table.
function gameRuleset(g) {
  return state.rulesets.find((r) => r.name === g.ruleset) || state.rulesets[0];
}

function tabletop(g) {
  const rs = gameRuleset(g);
  return !rs || rs.replay;
}

// A game of any ruleset but the registry's first says which ruleset it plays.
function scenarioName(g) {
  const rs = gameRuleset(g);
  const found = (rs ? rs.scenarios : state.scenarios).find((s) => s.id === g.scenario);
  const name = g.scenario_name || (found ? found.name : humanise(g.scenario));
  return rs && rs !== state.rulesets[0] ? `${name} (${rs.title})` : name;
}

async function refreshGames() {
  let games;
  try {
    games = await api.get("/api/games");
  } catch {
    return;
  }
  games.sort((a, b) => String(b.created).localeCompare(String(a.created)));
  const body = document.querySelector("#games tbody");
  fill(body, games.map((g) => {
    const mine = seatStore.load(g.id);
    const seatLink = mine && mine.seats ? mine.seats.find((s) => s.url && s.url.includes("token=")) : null;
    const myLink = mine && mine.hotUrl ? { url: mine.hotUrl } : seatLink;
    const status = g.status === "finished"
      ? h("span.badge.ok", g.status_text || (g.winner === null || g.winner === undefined ? "finished: draw" : `won by ${seatName(g.winner)}`))
      : h("span.badge.live", g.status_text || "in progress");
    const when = g.created ? new Date(g.created).toLocaleString() : "";
    return h("tr", { dataset: { game: g.id }, title: `Game ${g.id}` },
      h("td", h("b", scenarioName(g)), h("div.small.muted", when)),
      h("td.small", seatLines(g).map((line) => h("div.seat-line", line))),
      h("td", status),
      h("td.actions",
        g.status !== "finished" && myLink ? h("a.button.small.primary", { href: myLink.url }, "Rejoin") : null,
        " ",
        h("a.button.small", { href: `/games/${g.id}` }, g.status === "finished" ? "View" : "Watch"),
        " ",
        g.status === "finished" && tabletop(g) ? h("a.button.small", { href: `/games/${g.id}/replay` }, "Replay") : null,
        " ",
        deletable(g, mine) ? h("button.small.danger.delete-game", {
          type: "button", onclick: () => deleteGame(g, mine),
        }, g.status === "finished" ? "Delete" : "Abandon") : null));
  }));
  document.getElementById("no-games").classList.toggle("hidden", games.length > 0);
}

async function main() {
  document.getElementById("new-game-form").addEventListener("submit", createGame);
  document.getElementById("physical").addEventListener("change", (ev) => {
    document.getElementById("table-dice").hidden = !ev.target.checked;
  });
  document.getElementById("scenario").addEventListener("change", renderSeats);
  document.getElementById("ruleset").addEventListener("change", async () => {
    await loadScenarios();
    renderSeats();
  });
  document.getElementById("players").addEventListener("change", renderSeats);
  document.getElementById("refresh-games").addEventListener("click", refreshGames);
  try {
    await Promise.all([loadRulesets().then(loadScenarios), loadTeams()]);
  } catch (e) {
    showErrors([e.message]);
  }
  renderSeats();
  await refreshGames();
  setInterval(refreshGames, 5000);
  document.body.dataset.ready = "1";
}

main();
