// Controls for the pending decision: one small builder per decision kind, with a generic
// fallback (buttons for options, slider + number for a continuous domain). Hovering an option
// draws it on the board (template ghosts, arcs of fire, grid places).
import { isStraight, parseTemplateValue, splitUseLabel, TEMPLATE_USE } from "./templates.js";
import { diceRow } from "./dice.js";
import { dicePad } from "./dicepad.js";
import { touchScreen } from "./boardpick.js";
import { fill, h, humanise } from "./util.js";

/** What a template's use means beside its name (``TEMPLATE_USE``). */
const USE = {
  T: [TEMPLATE_USE.T, "free Shift"],
  P: [TEMPLATE_USE.P, ""],
  H: [TEMPLATE_USE.H, "+1 Hazard"],
  "-": [TEMPLATE_USE["-"], "touch it, use it"],
};

/**
 * Build the controls for ``view.pending``.
 * ctx: {board, submit(choice), vehicleName(id), lastLog(kind)}
 */
export function decisionControls(view, ctx) {
  const p = view.pending;
  const build = BUILDERS[p.kind] || (p.domain ? domainControls : optionButtons);
  const body = build(view, p, ctx);
  return p.preference ? h("div.col", body, preferenceControl(p.preference, ctx)) : body;
}

/** An optional prompt: how this seat wants it asked from now on (kept by the server). */
function preferenceControl(pref, ctx) {
  const select = h("select.prompt-pref", {
    "aria-label": `${pref.label}: ask me`,
    onchange: () => ctx.setPreference && ctx.setPreference(pref.key, select.value),
  }, Object.entries(pref.choices).map(([value, words]) =>
    h("option", { value, selected: value === pref.value }, words)));
  return h("label.small.muted.prompt-pref-row", `${pref.label}: `, select);
}

/** The server's shortcuts: several answers in one click (shown before anything is sent). */
function shortcutButtons(p, ctx, intent) {
  const list = (p.shortcuts || []).filter((sc) => !intent || sc.intent === intent);
  return list.length ? h("div.options.shortcuts", list.map((sc) => h("button.shortcut.primary-ish", {
    type: "button", dataset: { value: String(sc.choice), intent: sc.intent },
    onclick: () => ctx.submit(sc.choice, sc.then || []),
  }, sc.label))) : null;
}

function choiceButton(opt, ctx, extra = {}) {
  return h("button.choice", {
    type: "button", dataset: { value: String(opt.value) }, title: extra.title || opt.label,
    class: `choice${extra.cls ? ` ${extra.cls}` : ""}`,
    onclick: extra.onclick || (() => ctx.submit(opt.value)),
    onmouseenter: extra.hover || null,
    onfocus: extra.hover || null,
    onmouseleave: extra.unhover || null,
  }, extra.text ?? opt.label);
}

function optionButtons(view, p, ctx) {
  return h("div.options", p.options.map((o) => choiceButton(o, ctx)));
}

// -- vehicles: activate / deploy ------------------------------------------------------------
function vehiclePick(view, p, ctx) {
  const ids = p.options.map((o) => String(o.value));
  ctx.board.setFocus(null, ids);
  // Activating: the templates of a vehicle (the first, or the one clicked on the table) are
  // shown at once, nothing sent; a template click sends the vehicle, the template and its
  // skid dice in one action. A vehicle's button still sends the vehicle alone.
  const templatesBox = h("div.col.vehicle-templates");
  const show = async (opt) => {
    const next = p.kind === "activate" && ctx.preview ? await ctx.preview(opt.value) : null;
    const np = next && next.pending;
    if (!np || np.kind !== "template") { fill(templatesBox); return false; }
    const v = view.vehicles.find((x) => x.id === String(opt.value));
    const inner = { ...ctx, submit: (c, then = []) => ctx.submit(opt.value, [{ kind: "template", choice: c }, ...then]) };
    const tap = touchScreen() ? "tap" : "click";
    fill(templatesBox, h("p.hint.for-vehicle", `${v ? v.name : opt.label}: its template activates it (${tap} another vehicle on the table to switch).`),
      templatePick(next, np, inner));
    // Its templates as ghosts on the board too (boardpick.js), their Confirm bar with them.
    const pick = ctx.boardPick ? ctx.boardPick(next, inner) : null;
    if (pick) {  // in the panel's own slot (the list of options may be folded away)
      if (ctx.pickSlot) fill(ctx.pickSlot, pick.hint, pick.bar);
      else templatesBox.prepend(pick.hint, pick.bar);
      if (pick.settle) pick.settle();
    }
    ctx.board.setFocus(String(opt.value), ids);
    return true;
  };
  ctx.onVehicleClick = (id) => {
    const opt = p.options.find((o) => String(o.value) === id);
    if (opt) show(opt).then((shown) => { if (!shown) ctx.submit(opt.value); });
  };
  if (p.kind === "activate" && p.options.length) show(p.options[0]);
  return h("div.col",
    h("p.hint", ctx.board.onTable(view).some((v) => ids.includes(v.id))
      ? `${touchScreen() ? "Tap" : "Click"} a highlighted vehicle on the table, or pick one here:`
      : "Pick one (it is not on the table yet):"),
    h("div.options", p.options.map((o) => {
      const v = view.vehicles.find((x) => x.id === String(o.value));
      return choiceButton(o, ctx, {
        text: v ? `${v.name} (gear ${v.gear})` : o.label,
        hover: () => ctx.board.setFocus(String(o.value), ids),
        unhover: () => ctx.board.setFocus(null, ids),
      });
    })),
    templatesBox);
}

// -- starting grid -------------------------------------------------------------------------
function gridPick(view, p, ctx) {
  const poses = (p.preview && p.preview.poses) || {};
  const v = view.vehicles.find((x) => x.id === p.vehicle);
  const opts = [...p.options].sort((a, b) => Number(a.value) - Number(b.value));
  const show = (o) => {
    const pose = poses[String(o.value)];
    if (pose && v) ctx.board.showGhost({ ...pose }, v);
  };
  return h("div.col",
    h("p.hint", touchScreen() ? "Where on the starting grid? Each button places it at once (the table marks the places)."
      : "Where on the starting grid? Hover to see the place."),
    h("div.options.grid-options", opts.map((o) => choiceButton(o, ctx, {
      text: `${Number(o.value) > 0 ? "+" : ""}${Number(o.value)} mm`,
      hover: () => show(o), unhover: () => ctx.board.clearOverlays(),
    }))));
}

// -- movement template -----------------------------------------------------------------------
function templatePick(view, p, ctx) {
  const vid = p.vehicle || (p.preview && p.preview.vehicle);
  const pieces = (p.preview && p.preview.templates) || {};
  const groups = new Map();
  for (const o of p.options) {
    const t = parseTemplateValue(o.value);
    const [bare, letter] = splitUseLabel(o.label);
    const use = letter || "P";
    const name = bare.replace(/\s*\(left\)|\s*in reverse/g, "").trim();
    // A combined template's second icon set ("/alt") is a row of its own.
    const key = String(o.value).split("/").includes("alt") ? `${t.id}/alt` : t.id;
    if (!groups.has(key)) groups.set(key, { name, use, options: [] });
    groups.get(key).options.push({ ...t, opt: o });
  }
  const ends = (p.preview && p.preview.ends) || {};
  // The skid dice asked with the template (the server's follow_up): one click sends both.
  const follow = p.follow_up && p.follow_up.kind === "skid_dice" ? p.follow_up : null;
  let dice = null;
  if (follow) {
    const last = Number(sessionStorage.getItem("carnage.skid_dice"));
    dice = follow.options.includes(last) ? last : follow.options[follow.options.length - 1];
  }
  const then = () => (follow ? [{ kind: "skid_dice", choice: dice }] : []);
  const diceRowEl = follow ? h("div.options.dice-options.with-template", { role: "radiogroup", "aria-label": "Skid dice" },
    h("span.small", "Skid dice: "),
    follow.options.map((n) => h("button.dice-pick.small", {
      type: "button", dataset: { dice: String(n) }, class: `dice-pick small${n === dice ? " selected" : ""}`,
      "aria-pressed": String(n === dice),
      onclick: (ev) => {
        dice = n;
        try { sessionStorage.setItem("carnage.skid_dice", String(n)); } catch { /* optional */ }
        for (const b of ev.target.parentNode.querySelectorAll("button")) {
          const on = b.dataset.dice === String(n);
          b.classList.toggle("selected", on);
          b.setAttribute("aria-pressed", String(on));
        }
      },
    }, String(n)))) : null;
  const show = (t) => {
    ctx.board.showTemplate(vid, t, { pieces: pieces[String(t.opt.value)], end: ends[String(t.opt.value)] });
  };
  // One row per template; columns: ahead or right, left, reverse (right), reverse left
  // (the reverse columns only in gear 1, where reversing is offered).
  const withReverse = p.options.some((o) => parseTemplateValue(o.value).reverse);
  const rows = [...groups].map(([id, g]) => {
    const [useName, useNote] = USE[g.use] || USE.P;
    const straight = isStraight(id);
    const cells = [null, null, null, null];
    for (const t of g.options) {
      const col = (t.reverse ? 2 : 0) + (t.mirror ? 1 : 0);
      const text = straight ? (t.reverse ? "Reverse" : "Ahead") : ["Right", "Left", "Rev. R", "Rev. L"][col];
      const forbidden = g.use === "-";
      cells[col] = choiceButton(t.opt, ctx, {
        text, cls: `tpl${t.reverse ? " rev" : ""}${forbidden ? " forbidden" : ""}`, title: t.opt.label,
        hover: () => show(t), unhover: () => ctx.board.clearOverlays(),
        onclick: forbidden ? () => touchItWarning(view, p, ctx, t.opt, g.name) : () => ctx.submit(t.opt.value, then()),
      });
    }
    // A straight has no left or right: its Ahead button takes both forward columns and its
    // Reverse both reverse ones, so each label has room to be read whole.
    const shown = straight
      ? [cells[0] || h("span.empty.wide"), ...(withReverse ? [cells[2] || h("span.empty.wide")] : [])]
      : (withReverse ? cells : cells.slice(0, 2)).map((c) => c || h("span.empty"));
    if (straight) for (const c of shown) c.classList.add("wide");
    return h("div.tpl-row", { class: `tpl-row use-${useName.replace(/ /g, "-")}`, dataset: { template: id } },
      h("span.tpl-name", g.name),
      h("span.use", { class: `use use-${g.use === "-" ? "X" : g.use}`, title: `${useName}${useNote ? `: ${useNote}` : ""}` }, g.use === "-" ? "✕" : g.use),
      shown);
  });
  return h("div.col",
    h("p.hint", touchScreen() ? "Each button makes its move at once (the table shows each as a ghost). "
      : "Hover to lay a template; the dashed outline is where the vehicle ends if nothing is in the way. ",
      h("span.legend", h("span.use.use-T", "T"), " trivial ", h("span.use.use-P", "P"), " permitted ", h("span.use.use-H", "H"), " hazardous ",
        h("span.use.use-X", "✕"), " not permitted in this gear: touching it hands the choice to your opponent (touch it, use it)")),
    diceRowEl,
    h("div.touch-warning.hidden", { role: "alertdialog" }),
    h("div.tpl-list", { class: `tpl-list${withReverse ? " with-reverse" : ""}` }, rows));
}

/** A not-permitted template under "touch it, use it": say what happens before handing over. */
function touchItWarning(view, p, ctx, opt, name) {
  const box = document.querySelector(".touch-warning");
  const v = view.vehicles.find((x) => x.id === (p.vehicle || (p.preview && p.preview.vehicle)));
  if (!box) { ctx.submit(opt.value); return; }
  box.classList.remove("hidden");
  fill(box,
    h("b", `${name} is not permitted${v ? ` in gear ${v.gear}` : ""}.`),
    h("p", "Touch it, use it (Refuelled p.38): you touched it, so you must still move, but your opponent picks a permitted template for you, and you roll no skid dice."),
    h("div.options",
      h("button.choice.confirm-forbidden", { type: "button", onclick: () => ctx.submit(opt.value) }, "Hand the choice over"),
      h("button.choice", { type: "button", onclick: () => box.classList.add("hidden") }, "Pick another template")));
}

// -- skid dice -------------------------------------------------------------------------------
function skidDice(view, p, ctx) {
  const chosen = ctx.placedTemplate && ctx.placedTemplate();
  if (chosen) ctx.board.showTemplate(chosen.vehicle, chosen, { keep: true, pieces: chosen.pieces });
  return h("div.col",
    h("p.hint", "Each skid die shows Shift, Hazard, Spin or Slide. Shifts change gear, cancel results or drop Hazards."),
    h("div.options.dice-options", p.options.map((o) => choiceButton(o, ctx, {
      text: [h("span.dice", "⚄".repeat(Number(o.value)) || "—"), ` ${o.value} ${Number(o.value) === 1 ? "die" : "dice"}`],
    }))));
}

function pushIt(view, p, ctx) {
  const chosen = ctx.placedTemplate && ctx.placedTemplate();
  if (chosen) ctx.board.showTemplate(chosen.vehicle, chosen, { keep: true, pieces: chosen.pieces });
  const tray = h("div.dice-tray", diceRow(p.dice));
  const light = (nums) => fill(tray, diceRow(p.dice, { highlight: new Set(nums) }));
  const keep = p.options.filter((o) => o.value === "no");
  const rerolls = p.options.filter((o) => o.value !== "no");
  return h("div.col",
    p.dice ? h("p.roll", "Rolled:") : null,
    tray,
    shortcutButtons(p, ctx, "keep"),
    h("div.options", keep.map((o) => choiceButton(o, ctx, { cls: "primary-ish", text: p.shortcuts && p.shortcuts.length ? "Keep the dice (spend Shifts one by one)" : "Keep the dice" }))),
    h("p.hint", `Push It: take +1 Hazard and re-roll the dice you pick${touchScreen() ? "." : " (hover a choice to see them)."}`),
    h("div.options.reroll-options", rerolls.map((o) => {
      const nums = String(o.value).split(",").map((d) => Number(d) + 1);
      return choiceButton(o, ctx, {
        text: o.label.replace(/^Push It: r/, "R"),
        hover: () => light(nums), unhover: () => light([]),
      });
    })));
}

function spendShift(view, p, ctx) {
  const chosen = ctx.placedTemplate && ctx.placedTemplate();
  if (chosen) ctx.board.showTemplate(chosen.vehicle, chosen, { keep: true, pieces: chosen.pieces });
  const tray = h("div.dice-tray", diceRow(p.dice));
  const light = (nums) => fill(tray, diceRow(p.dice, { highlight: new Set(nums) }));
  return h("div.col",
    p.dice ? h("p.roll", "The skid dice (a crossed-out Shift is spent; a dashed one marked + is the manoeuvre's free Shift):") : null,
    tray,
    shortcutButtons(p, ctx, "keep"),
    h("div.options", p.options.map((o) => {
      const [act, arg] = String(o.value).split(":");
      const nums = act === "cancel" ? [Number(arg) + 1] : [];
      return choiceButton(o, ctx, {
        cls: act === "done" ? "done" : "",
        hover: () => light(nums), unhover: () => light([]),
      });
    })));
}

function slidePick(view, p, ctx) {
  const chosen = ctx.placedTemplate && ctx.placedTemplate();
  if (chosen) ctx.board.showTemplate(chosen.vehicle, chosen, { keep: true, pieces: chosen.pieces });
  return h("div.col",
    h("p.hint", "The vehicle slides off the end of the straight: which way does it face?"),
    h("div.options", p.options.map((o) => choiceButton(o, ctx, { text: o.value === "left" ? "⟲ Face left" : o.value === "right" ? "Face right ⟳" : o.label }))));
}

// -- continuous: spin and lose control -------------------------------------------------------
function domainControls(view, p, ctx) {
  const d = p.domain;
  const vid = p.vehicle || (p.preview && p.preview.vehicle);
  let value = Math.max(d.low, Math.min(d.high, 0));
  const slider = h("input.angle-slider", { type: "range", min: d.low, max: d.high, step: 1, value, "aria-label": `${p.kind} angle` });
  const number = h("input.angle-number", { type: "number", min: d.low, max: d.high, step: 1, value, "aria-label": `${p.kind} angle (number)` });
  const set = (x, from) => {
    const n = Number(x);
    if (!Number.isFinite(n)) return;
    value = Math.max(d.low, Math.min(d.high, n));
    if (from !== "slider") slider.value = value;
    if (from !== "number") number.value = value;
    if (from !== "board") ctx.board.setSpinAngle(value);
    confirm.textContent = `${humanise(p.kind)} ${value > 0 ? "+" : ""}${value}°`;
  };
  slider.addEventListener("input", () => set(slider.value, "slider"));
  number.addEventListener("input", () => set(number.value, "number"));
  const confirm = h("button.primary.confirm", { type: "button", onclick: () => ctx.submit(value) }, "Confirm");
  // The vehicle's ghost turns for an angle it turns by; a length (mm) is set on the board
  // elsewhere (boardpick.js: along an edge) or here.
  const turning = d.unit === "deg" && !String(p.kind).startsWith("drop_");
  if (turning && vid && ctx.board.vehicle(vid)) ctx.board.startSpin(vid, d.low, d.high, (a) => set(a, "board"));
  set(value);
  const presets = (d.high - d.low > 200 ? [-180, -90, -45, 0, 45, 90, 180] : [-90, -45, 0, 45, 90])
    .filter((a) => a >= d.low && a <= d.high);
  const unit = d.unit === "deg" ? "°" : ` ${d.unit}`;
  return h("div.col",
    h("p.hint", turning
      ? `Drag the vehicle's ghost on the table, or set the angle (anticlockwise, ${d.low}${unit} to ${d.high}${unit}).`
      : `Set it here (${d.low}${unit} to ${d.high}${unit}).`),
    h("div.row", slider, number, h("span", unit)),
    h("div.options.presets", presets.map((a) => h("button.small", { type: "button", onclick: () => set(a) }, `${a > 0 ? "+" : ""}${a}°`))),
    h("div.row", confirm));
}

// -- attacks -------------------------------------------------------------------------------
function attackPick(view, p, ctx) {
  const weapons = (p.preview && p.preview.weapons) || [];
  const byKey = new Map(weapons.map((w) => [w.key, w]));
  const stop = p.options.filter((o) => !String(o.value).includes(">"));
  const groups = new Map();
  for (const o of p.options) {
    const v = String(o.value);
    if (!v.includes(">")) continue;
    const [key, target] = v.split(">");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({ target, opt: o });
  }
  for (const list of groups.values()) list.sort((a, b) => (a.opt.friendly === true) - (b.opt.friendly === true));
  const showWeapon = (key, target) => {
    const w = byKey.get(key);
    const polys = w ? (w.polygons || []).map((polygon) => ({ polygon, kind: w.arc })) : [];
    ctx.board.showShots(polys, target ? [target] : (w ? w.targets : []));
  };
  const showAll = () => {
    const polys = weapons.flatMap((w) => (w.polygons || []).map((polygon) => ({ polygon, kind: w.arc })));
    ctx.board.showShots(polys, [...new Set(weapons.flatMap((w) => w.targets || []))]);
  };
  showAll();
  const rows = [...groups].map(([key, list]) => {
    const w = byKey.get(key);
    const name = w ? w.name : humanise(key.split("#")[0]);
    return h("div.weapon-row", { dataset: { weapon: key }, onmouseenter: () => showWeapon(key), onmouseleave: showAll },
      h("div.wtitle", h("b", name), w ? h("span.muted.small", ` ${humanise(w.arc)} · ${w.range}`) : null),
      h("div.options", list.map(({ target, opt }) => {
        const tv = view.vehicles.find((x) => x.id === target);
        const own = opt.friendly === true;  // legal (p.30), listed after the enemies
        return choiceButton(opt, ctx, {
          text: `at ${own ? "your own " : ""}${tv ? tv.name : target}`, title: opt.label,
          cls: own ? "friendly" : "enemy",
          hover: () => showWeapon(key, target), unhover: () => showWeapon(key),
        });
      })));
  });
  // "Fire everything at X" (the server's shortcut): every weapon that can, Handguns once per
  // crew member (p.67), then no more attacks. Single weapon buttons stay for split fire.
  return h("div.col",
    rows.length ? h("p.hint", "Declare an attack: the shaded areas are each weapon's arc at its range.") : h("p.hint", "No target in range and arc."),
    shortcutButtons(p, ctx, "fire_at"),
    rows,
    h("div.options", stop.map((o) => choiceButton(o, ctx, { text: "Hold fire (no more attacks)", cls: "done" }))));
}

// -- collisions and hits ---------------------------------------------------------------------
function collisionPick(view, p, ctx) {
  if (p.vehicle) ctx.board.setFocus(p.vehicle, []);
  return h("div.col",
    h("p.hint", "Smash: roll attack dice against the other party. Evade: roll evade dice to cancel hits against you."),
    h("div.options", p.options.map((o) => choiceButton(o, ctx, { cls: String(o.value) }))));
}

/** Real dice rolled at the table: the faces entered on the pad the companion page uses. */
function tableDice(view, p, ctx) {
  return dicePad(p, (faces) => ctx.submit(faces));
}

const BUILDERS = {
  table_dice: tableDice,
  activate: vehiclePick,
  deploy: vehiclePick,
  grid: gridPick,
  template: templatePick,
  skid_dice: skidDice,
  push_it: pushIt,
  spend_shift: spendShift,
  slide: slidePick,
  spin: domainControls,
  lose_control: domainControls,
  attack: attackPick,
  collision_reaction: collisionPick,
};
