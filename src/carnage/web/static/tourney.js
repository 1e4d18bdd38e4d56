// The tourney page: pick two teams (this browser's saved teams or the scenario's own), POST
// /api/tourney, and chart the answer: team A's win/draw/loss and each vehicle's survival as
// bars with their 95% Wilson intervals, and the damage each vehicle dealt and took.
import {api} from "/static/js/api.js";
import {h} from "/static/js/util.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

const pct = (p) => `${(100 * p).toFixed(1)}%`;

/**
 * Horizontal bars, one per row {key, label, value, cls, lo?, hi?}, on a 0..max scale; a row
 * with lo/hi gets an interval whisker. Each bar is <rect class="bar" data-k data-p>, each
 * whisker <line class="ci" data-k data-lo data-hi>.
 */
export function barRows(rows, {max = 1, format = pct, title = ""} = {}) {
  const w = 460, row = 24, pad = {l: 150, r: 70, t: 8, b: 22};
  const hgt = pad.t + pad.b + row * rows.length;
  const iw = w - pad.l - pad.r;
  const x = (v) => pad.l + iw * Math.max(0, Math.min(1, v / (max || 1)));
  const root = svg("svg", {class: "tourney-chart", viewBox: `0 0 ${w} ${hgt}`, width: w,
                           height: hgt, role: "img", "aria-label": title});
  if (title) root.append(svg("title", {}, title));
  for (const f of [0, 0.5, 1]) {
    const gx = pad.l + iw * f;
    root.append(svg("line", {class: "grid", x1: gx, x2: gx, y1: pad.t, y2: hgt - pad.b}));
    root.append(svg("text", {x: gx, y: hgt - 6, "text-anchor": "middle"}, format(max * f)));
  }
  rows.forEach((r, i) => {
    const y = pad.t + i * row;
    root.append(svg("text", {x: pad.l - 6, y: y + row * 0.65, "text-anchor": "end"}, r.label));
    const bar = svg("rect", {class: `bar ${r.cls || ""}`, x: pad.l, y: y + 4,
                             width: Math.max(0, x(r.value) - pad.l), height: row - 8,
                             "data-k": r.key, "data-p": r.value});
    bar.append(svg("title", {}, `${r.label}: ${format(r.value)}` +
                   (r.lo !== undefined ? ` (95%: ${format(r.lo)} to ${format(r.hi)})` : "")));
    root.append(bar);
    if (r.lo !== undefined) {
      const cy = y + row / 2;
      const ci = svg("line", {class: "ci", x1: x(r.lo), x2: x(r.hi), y1: cy, y2: cy,
                              "data-k": r.key, "data-lo": r.lo, "data-hi": r.hi});
      root.append(ci);
      for (const end of [r.lo, r.hi]) {
        root.append(svg("line", {class: "ci", x1: x(end), x2: x(end), y1: cy - 5, y2: cy + 5}));
      }
    }
    root.append(svg("text", {class: "value", x: w - pad.r + 6, y: y + row * 0.65},
                    format(r.value)));
  });
  return root;
}

function draw(name, chart) {
  const fig = document.querySelector(`figure[data-chart="${name}"]`);
  fig.querySelector("svg")?.remove();
  fig.append(chart);
}

function teamChoices(select, teams, fallback) {
  select.replaceChildren(h("option", {value: ""}, "Scenario's own team"),
    ...teams.map((t) => h("option", {value: t.id}, t.name)));
  if (fallback) select.value = fallback;
}

function payload(form) {
  const f = new FormData(form);
  const side = (v) => (v ? {team_id: v} : {});
  const num = (k) => {
    const v = String(f.get(k) ?? "").trim();
    return v === "" ? undefined : Number(v);
  };
  return {scenario: f.get("scenario"), a: side(f.get("a")), b: side(f.get("b")),
          bot_a: f.get("bot_a"), bot_b: f.get("bot_b"), games: num("games"),
          seed: num("seed"), max_rounds: num("max_rounds")};
}

function show(s) {
  document.getElementById("results").classList.remove("hidden");
  const a = s.teams.A, b = s.teams.B;
  document.getElementById("title").textContent =
    `${a.name} (A, ${a.bot}) vs ${b.name} (B, ${b.bot}): ${s.scenario}`;
  const o = s.a;
  document.getElementById("summary").innerHTML =
    `${s.played} games played from seed ${s.seed}` +
    (s.stopped_early ? ` (stopped at the time limit: ${s.asked} were asked)` : "") +
    `: A wins <b>${pct(o.win.rate)}</b> (${pct(o.win.ci95[0])} to ${pct(o.win.ci95[1])}), ` +
    `draws ${pct(o.draw.rate)}, loses ${pct(o.loss.rate)}; mean rounds ${s.mean_rounds}` +
    (s.errors.length ? `; ${s.errors.length} game(s) raised an error` : "") + ".";
  draw("outcomes", barRows(["win", "draw", "loss"].map((k) => ({
    key: k, cls: k, label: {win: "A wins", draw: "draws", loss: "A loses"}[k],
    value: o[k].rate, lo: o[k].ci95[0], hi: o[k].ci95[1]})), {title: "Team A's results"}));
  const label = (v) => `${v.team}: ${v.name}`;
  draw("survival", barRows(s.vehicles.map((v, i) => ({
    key: String(i), cls: v.team, label: label(v), value: v.survived.rate,
    lo: v.survived.ci95[0], hi: v.survived.ci95[1]})), {title: "Survival"}));
  const most = Math.max(1, ...s.vehicles.flatMap((v) => [v.damage_dealt, v.damage_taken]));
  draw("damage", barRows(s.vehicles.flatMap((v, i) => [
    {key: `${i}-dealt`, cls: v.team, label: `${label(v)} dealt`, value: v.damage_dealt},
    {key: `${i}-taken`, cls: `${v.team} taken`, label: "taken", value: v.damage_taken},
  ]), {max: most, format: (x) => x.toFixed(1), title: "Damage per game"}));
  document.querySelector("#seats tbody").replaceChildren(
    ...Object.entries(s.by_seat).map(([where, r]) => h("tr", h("td", where),
      h("td", String(r.games)), h("td", String(r.win)), h("td", String(r.draw)),
      h("td", String(r.loss)))));
}

async function main() {
  const form = document.getElementById("tourney-form");
  const status = document.getElementById("status");
  const err = document.getElementById("tourney-error");
  const [scenarios, teams] = await Promise.all([
    api.get("/api/scenarios"), api.teams().catch(() => [])]);
  const pick = document.getElementById("scenario");
  pick.replaceChildren(
    ...scenarios.filter((s) => s.players >= 2).map((s) => h("option", {value: s.id}, s.name)));
  // The introductory race first, whatever else the server plays.
  if (scenarios.some((s) => s.id === "street-race")) pick.value = "street-race";
  teamChoices(document.getElementById("team-a"), teams);
  teamChoices(document.getElementById("team-b"), teams);
  let runs = 0;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = document.getElementById("run");
    button.disabled = true;
    err.textContent = "";
    status.textContent = "Playing the games…";
    try {
      show(await api.post("/api/tourney", payload(form)));
      status.textContent = "";
    } catch (e) {
      status.textContent = "";
      err.textContent = e.message;
    } finally {
      button.disabled = false;
      document.body.dataset.runs = String(++runs);
    }
  });
  document.body.dataset.ready = "1";
}

main();
