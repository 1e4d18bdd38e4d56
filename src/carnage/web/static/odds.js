// The odds page: each panel's form asks /api/odds/... on every change and redraws its charts.
import {barChart, formQuery as params, pct} from "/static/odds-chart.js";

async function ask(path, q) {
  const r = await fetch(`/api/odds/${path}?${q}`);
  const body = await r.json();
  if (!r.ok) throw new Error(body.detail || `HTTP ${r.status}`);
  return body;
}

function draw(panel, name, dist, label, atLeast) {
  const fig = panel.querySelector(`figure[data-chart="${name}"]`);
  fig.querySelector("svg")?.remove();
  fig.append(barChart(dist, {label, atLeast, title: fig.querySelector("figcaption").textContent}));
}

const PANELS = {
  async attack(panel, q) {
    const a = await ask("attack", q);
    draw(panel, "hits", a.hits, "hits");
    draw(panel, "damage", a.distribution, "damage", a.p_at_least);
    const one = a.p_at_least["1"] ?? 0;
    return `Expected damage <b>${a.expected_damage.toFixed(3)}</b> (exactly ${a.exact.expected_damage}); ` +
      `P(at least 1 damage) <b>${pct(one)}</b>; expected hits ${a.expected_hits.toFixed(3)}.`;
  },
  async skid(panel, q) {
    if (!q.get("manoeuvre")) q.delete("manoeuvre");
    const s = await ask("skid", q);
    draw(panel, "shifts", s.shifts, "shifts");
    draw(panel, "hazards_after", s.hazards_after, "hazards");
    draw(panel, "spins", s.spins, "spins");
    draw(panel, "slides", s.slides, "slides");
    return `P(wipeout) <b>${pct(s.p_wipeout)}</b> (exactly ${s.exact.p_wipeout}); ` +
      (s.p_wipeout_flip !== undefined ? `P(wipeout and flip in gear ${s.gear}) ` +
        `<b>${pct(s.p_wipeout_flip)}</b>; ` : "") +
      `P(any Spin) ${pct(s.p_spin)}, P(any Slide) ${pct(s.p_slide)}` +
      (q.get("push_it") ? `; pushes ${pct(s.p_push)} of the time` : "") + ".";
  },
  async checks(panel, q) {
    const f = await ask("flip", new URLSearchParams({gear: q.get("gear")}));
    const e = await ask("explode", new URLSearchParams({
      ammo: q.get("ammo"), weight: q.get("weight"), evade_gear: q.get("evade_gear")}));
    draw(panel, "blast", e.attack.distribution, "damage", e.attack.p_at_least);
    return `P(flip) <b>${pct(f.p_flip)}</b> (${f.exact.p_flip}); ` +
      `P(explode) <b>${pct(e.p_explode)}</b> (${e.exact.p_explode}); ` +
      `blast of ${e.explosion_dice} dice: expected damage ${e.attack.expected_damage.toFixed(3)}.`;
  },
  async smash(panel, q) {
    const s = await ask("smash", q);
    draw(panel, "a", s.a.distribution, "damage", s.a.p_at_least);
    draw(panel, "b", s.b.distribution, "damage", s.b.p_at_least);
    return (s.forced_evade ? "Tailgate: the front vehicle is faster, so both must evade. " : "") +
      `A rolls ${s.a.smash_dice} smash dice (${s.a.reaction}), B ${s.b.smash_dice} (${s.b.reaction}); ` +
      `expected damage to A <b>${s.a.expected_damage.toFixed(3)}</b>, to B ` +
      `<b>${s.b.expected_damage.toFixed(3)}</b>; Hazards +${s.a.hazards} each.`;
  },
  async kart_attack(panel, q) {
    const k = await ask("kart/attack", q);
    draw(panel, "gained", k.distribution, "hazards", k.p_at_least);
    return `Expected Hazards <b>${k.expected_hazards.toFixed(3)}</b>; from ${k.hazards} Hazards, ` +
      `P(${k.wipeout_at}+: a Wipeout) <b>${pct(k.p_wipeout)}</b> (exactly ${k.exact.p_wipeout}).`;
  },
  async kart_smash(panel, q) {
    const s = await ask("kart/smash", q);
    draw(panel, "a", s.a.distribution, "hazards", s.a.p_at_least);
    draw(panel, "b", s.b.distribution, "hazards", s.b.p_at_least);
    const wipe = (side) => side.p_wipeout === undefined ? "" : `, P(Wipeout) <b>${pct(side.p_wipeout)}</b>`;
    return (s.forced_evade ? "Tailgate: the front kart is faster, so both must evade. " : "") +
      `As ${s.orientation.replace("_", "-")}: A rolls ${s.a.smash_dice} smash dice, B ${s.b.smash_dice}; ` +
      `A gains ${s.a.expected_hazards.toFixed(3)} Hazards on average${wipe(s.a)}; ` +
      `B ${s.b.expected_hazards.toFixed(3)}${wipe(s.b)}.`;
  },
  async dr_shoot(panel, q) {
    const s = await ask("devilsrun/shoot", q);
    draw(panel, "hits", s.hits, "hits");
    draw(panel, "damage", s.distribution, "damage", s.p_at_least);
    return `${s.dice} D10 at BS ${s.bs}${s.saves ? "" : ", no saves"}: expected damage ` +
      `<b>${s.expected_damage.toFixed(3)}</b> (exactly ${s.exact.expected_damage})` +
      (s.p_wreck !== undefined ? `; P(wrecked at ${s.cp} CP) <b>${pct(s.p_wreck)}</b>` : "") + ".";
  },
  async dr_offensive(panel, q) {
    const e = q.get("e");
    q.delete("e");
    const o = await ask("devilsrun/offensive", q);
    const ev = await ask("devilsrun/test", new URLSearchParams({target: e}));
    draw(panel, "target", o.target.distribution, "damage", o.target.p_at_least);
    draw(panel, "attacker", o.attacker.distribution, "damage", o.attacker.p_at_least);
    return `Expected damage to the target <b>${o.target.expected_damage.toFixed(3)}</b>, to the ` +
      `attacker <b>${o.attacker.expected_damage.toFixed(3)}</b>; the target evades (D10 ≤ ${e}) ` +
      `<b>${pct(ev.p_success)}</b> of the time, if it has a square to go to.`;
  },
};

// Answers can come back out of order (one request per keystroke): only the latest request
// of a panel may draw, so the page never ends up showing the odds of an earlier form.
const latest = {};

async function update(id) {
  const panel = document.getElementById(id);
  const err = panel.querySelector(".error");
  const mine = (latest[id] = (latest[id] || 0) + 1);
  panel.dataset.asked = String(mine);  // asked === shown: the panel shows its latest form
  const scratch = document.createElement("div");
  for (const fig of panel.querySelectorAll("figure[data-chart]")) {
    scratch.append(fig.cloneNode(true));
  }
  try {
    const html = await PANELS[id](scratch, params(panel.querySelector("form")));
    if (mine !== latest[id]) return;  // a newer request has been made since
    for (const fig of scratch.querySelectorAll("figure[data-chart]")) {
      panel.querySelector(`figure[data-chart="${fig.dataset.chart}"]`).replaceWith(fig);
    }
    panel.querySelector(".summary").innerHTML = html;
    err.textContent = "";
    panel.dataset.shown = String(mine);
  } catch (e) {
    if (mine === latest[id]) {
      err.textContent = e.message;
      panel.dataset.shown = String(mine);
    }
  }
}

async function main() {
  const ids = Object.keys(PANELS);
  for (const id of ids) {
    const form = document.getElementById(id).querySelector("form");
    form.addEventListener("input", () => update(id));
    form.addEventListener("change", () => update(id));
    form.addEventListener("submit", (ev) => ev.preventDefault());
  }
  await Promise.all(ids.map(update));
  document.body.dataset.ready = "1";
}

main();
