// Vehicle dashboards: the printable 88 x 63 mm card (from a team report) and the live card
// beside the table (from a GameView vehicle).
import { h, humanise } from "./util.js";

const FACING_SHORT = { front: "F", rear: "R", side: "S", turret: "T" };
const RANGE_SHORT = {
  short: "Short", medium: "Medium", long: "Long", double: "Double",
  small_burst: "Sm. burst", large_burst: "Lg. burst", dropped: "Dropped",
};

function boxes(n, cls, filled = 0, title = "") {
  const out = [];
  for (let i = 0; i < n; i++) out.push(h(`span.box.${cls}`, { class: `box ${cls}${i < filled ? " used" : ""}` }));
  return h(`span.boxes.${cls}-boxes`, { title }, out);
}

function dice(w) {
  if (!w) return "–";
  if (w.attack_dice) return w.special_dice ? `(${w.attack_dice}D6)` : `${w.attack_dice}D6`;
  return w.special_dice ? "*" : "–";
}

function ranges(w) {
  return w ? w.ranges.map((r) => RANGE_SHORT[r] || humanise(r)).join("/") : "?";
}

/** One printable dashboard card (88 x 63 mm) for a vehicle of a team report. */
export function printCard(rep, cat, teamName, colour) {
  const wcat = (id) => cat.weapons[id];
  const ucat = (id) => cat.upgrades[id];
  const vcat = cat.vehicles[rep.type];
  const gears = [];
  for (let g = 1; g <= 6; g++) {
    gears.push(h("span.gear", { class: `gear${g <= rep.max_gear ? "" : " off"}`, title: g <= rep.max_gear ? `gear ${g}` : "above max gear" }, g));
  }
  const weaponRows = rep.weapons.map((w) => {
    const c = wcat(w.id);
    return h("tr",
      h("td.wname", c ? c.name : humanise(w.id), w.mount === "trailer" ? " (trailer)" : ""),
      h("td.c", w.facing ? (FACING_SHORT[w.facing] || w.facing) : "–"),
      h("td", ranges(c)),
      h("td.c", dice(c)),
      h("td", w.ammo ? boxes(w.ammo, "ammo", 0, `${w.ammo} ammo`) : ""));
  });
  const upgrades = rep.upgrades.map((u) => {
    const c = ucat(u.id);
    const name = c ? c.name : humanise(u.id);
    return `${name}${u.facing ? ` (${u.facing})` : ""}${u.ammo ? ` [ammo ${u.ammo}]` : ""}`;
  });
  const perks = rep.perks.map((p) => (cat.perks[p.id] ? cat.perks[p.id].name : humanise(p.id)));
  const specials = rep.special_rules.map(humanise);
  return h("article.dash-card", { style: { "--team": colour } },
    h("header",
      h("div.title", h("b.name", rep.name), h("span.type", vcat ? vcat.name : humanise(rep.type))),
      h("div.weight", humanise(rep.weight || ""))),
    h("div.stats",
      h("div.stat-hull", h("label", "Hull"), boxes(rep.hull, "hull", 0, `${rep.hull} hull`)),
      h("div.stat-row",
        h("div", h("label", "Gear"), h("span.gears", gears)),
        h("div", h("label", "Handling"), h("b.big", rep.handling)),
        h("div", h("label", "Crew"), h("b.big", rep.crew)),
        h("div", h("label", "Hazards"), boxes(6, "hazard")))),
    h("table.weapons",
      h("thead", h("tr", h("th", "Weapon"), h("th", "Arc"), h("th", "Range"), h("th", "Dice"), h("th", "Ammo"))),
      h("tbody", weaponRows.length ? weaponRows : h("tr", h("td.muted", { colspan: 5 }, "Handguns only")))),
    h("div.extras",
      upgrades.length ? h("div", h("label", "Upgrades"), " ", upgrades.join(", ")) : null,
      perks.length ? h("div", h("label", "Perks"), " ", perks.join(", ")) : null,
      specials.length ? h("div", h("label", "Special rules"), " ", specials.join(", ")) : null),
    h("footer", h("span", teamName), h("span", `${rep.cans} cans`)));
}

/** The live dashboard of a vehicle on the table (compact: the strip under the board). */
export function liveCard(v, colour, { active, pendingHere, onclick, hull: hullTrack = true } = {}) {
  const gone = v.status && v.status !== "active";
  const gears = [];
  for (let g = 1; g <= 6; g++) {
    const cls = `gear${g > v.max_gear ? " off" : ""}${g === v.gear ? " on" : ""}`;
    gears.push(h("span", { class: cls, title: g > v.max_gear ? "above max gear" : `gear ${g}` }, g));
  }
  const hazards = [];
  for (let i = 0; i < Math.max(6, v.hazards); i++) hazards.push(h("span", { class: `box hazard${i < v.hazards ? " used" : ""}` }));
  const hull = [];
  for (let i = 0; i < v.hull; i++) hull.push(h("span", { class: `box hull${i >= v.hull_points ? " used" : ""}` }));
  const ARC = { front: "Front arc", rear: "Rear arc", side: "Side arc", turret: "Turret (360°)", "360": "360°" };
  const weapons = (v.weapons || []).map((w) => {
    const range = String(w.range || "").split("/").map((r) => RANGE_SHORT[r] || humanise(r)).join("/");
    const arc = ARC[w.arc] || (w.facing ? humanise(w.facing) : "360°");
    const ammo = w.ammo === null || w.ammo === undefined ? null : w.ammo;
    const rules = (w.special_rules || []).filter((r) => r.toLowerCase() !== "ammo");
    return h("div.wline", { dataset: { key: w.key }, title: `${w.name}: ${arc}, ${range}, ${w.dice}${ammo === null ? "" : `, ammo ${ammo}`}${rules.length ? `; ${rules.join(", ")}` : ""}` },
      h("b.wname", w.name || humanise(w.id)),
      h("span.warc", ` ${arc}`),
      h("span.wrange", ` · ${range}`),
      h("span.wdice", ` · ${w.dice ?? "–"}`),
      ammo === null ? null : h("span.ammo", { class: `ammo${ammo === 0 ? " empty" : ""}` }, ` · ammo ${ammo}`),
      rules.length ? h("span.wrules.muted", ` · ${rules.join(", ")}`) : null);
  });
  const upgrades = (v.upgrades || []).map((u) => `${u.name}${u.facing ? ` (${humanise(u.facing)})` : ""}${u.ammo === null || u.ammo === undefined ? "" : ` [ammo ${u.ammo}]`}`);
  const extras = [
    upgrades.length ? h("div.xrow.upgrades", h("label", "Upgr."), upgrades.join(", ")) : null,
    (v.perks || []).length ? h("div.xrow.perks", h("label", "Perks"), v.perks.join(", ")) : null,
    (v.rule_names || v.special_rules || []).length ? h("div.xrow.specials", h("label", "Rules"),
      (v.rule_names && v.rule_names.length ? v.rule_names : v.special_rules.map(humanise)).join(", ")) : null,
  ];
  const status = gone
    ? h("span.badge.bad", humanise(v.status))
    : v.activated
      ? h("span.badge", "activated")
      : h("span.badge.warn", "to act");
  return h("article.live-card", {
    class: `live-card${active ? " active" : ""}${pendingHere ? " pending" : ""}${gone ? " gone" : ""}`,
    style: { "--team": colour }, dataset: { vehicle: v.id }, onclick,
  },
  h("header", h("span.swatch", { style: { background: colour } }), h("b.name", v.name), h("span.grow"), status),
  h("div.sub", `${humanise(v.type)} · ${humanise(v.weight)} · Handling ${v.handling} · `, h("b.crew", `Crew ${v.crew}`)),
  h("div.lrow.gear-row", { title: `gear ${v.gear} of ${v.max_gear}` }, h("label", "Gear"), h("span.gears", gears)),
  h("div.lrow.hazard-row", { title: `${v.hazards} Hazard tokens` }, h("label", "Haz."), h("span.boxes", hazards), h("b.hz", v.hazards)),
  // No Hull track where the ruleset never damages (view.hull_track false: the Kart variant).
  hullTrack ? h("div.lrow.hull-row", { title: `hull ${v.hull_points} of ${v.hull}` }, h("label", "Hull"), h("span.boxes", hull), h("b.hullnum", `${v.hull_points}/${v.hull}`)) : null,
  h("div.weapons", weapons.length ? weapons : h("div.wline.muted", "Handguns only")),
  extras);
}
