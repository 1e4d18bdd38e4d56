// Dice drawn as dice: skid dice by face (Shift, Hazard, Spin, Slide), attack and evade D6 with
// the dice that score marked, re-rolled dice and spent Shifts marked. Every die shows its
// number, counted from 1 (the same numbers as the buttons and the log).
import { h } from "./util.js";

export const SKID_FACES = {
  shift: { glyph: "⇅", name: "Shift" },
  hazard: { glyph: "⚠", name: "Hazard" },
  spin: { glyph: "⟲", name: "Spin" },
  slide: { glyph: "⇢", name: "Slide" },
};
const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const MARKS = {
  hit: "hit", crit: "critical: two hits", miss: "no hit", saved: "cancels a hit",
  rerolled: "re-rolled (Push It)", spent: "Shift spent", cancelled: "result cancelled by a Shift",
};
const FREE = "no die: the manoeuvre's free Shift";

/** One die: ``d`` is {number, face, mark}; ``kind`` skid, attack, evade or d6. */
export function die(kind, d, { highlight = false } = {}) {
  const skid = kind === "skid";
  const face = skid ? SKID_FACES[d.face] || { glyph: "?", name: d.face } : null;
  const what = skid ? face.name : `${d.face}`;
  const marks = [d.free ? FREE : "", d.mark ? MARKS[d.mark] || d.mark : ""].filter(Boolean);
  const title = `${d.free ? `Free ${what}` : `Die ${d.number}: ${what}`}${marks.length ? ` (${marks.join("; ")})` : ""}`;
  return h("span.die", {
    class: `die ${skid ? `skid face-${d.face}` : `d6 d6-${d.face}`}${d.mark ? ` mark-${d.mark}` : ""}${d.free ? " free" : ""}${highlight ? " highlight" : ""}`,
    title, "aria-label": title, dataset: { number: d.number, face: d.face, mark: d.mark || "" },
  },
  h("span.num", d.free ? "+" : String(d.number)),
  skid ? h("span.glyph", face.glyph) : h("span.glyph", PIPS[Number(d.face)] || d.face),
  h("span.fname", skid ? face.name : String(d.face)));
}

/** A row of dice; ``highlight`` is a set of die numbers to pick out (e.g. a re-roll's). */
export function diceRow(view, { highlight = new Set(), small = false } = {}) {
  if (!view || !view.dice || !view.dice.length) return null;
  return h("span.dice-row", { class: `dice-row ${view.kind}${small ? " small" : ""}`, dataset: { kind: view.kind } },
    view.dice.map((d) => die(view.kind, d, { highlight: highlight.has(d.number) })));
}
