// Playing on the board itself: the pending decision's choices drawn on the table as things to
// tap (movement templates as ghosts of where the vehicle ends, coloured by how hard they are;
// vehicles to activate or shoot at; places a vehicle may be put). The list of options in the
// decision panel stays for the keyboard and screen readers.
//
// With a mouse, hovering a choice previews it and clicking it commits it. With a finger (or a
// pen), a first tap only previews and selects; tapping the same choice again, or the panel's
// Confirm button, commits it: a tap never commits at once.
import { bodyCorners, layTemplate, parseTemplateValue, splitUseLabel, TEMPLATE_USE } from "./templates.js";
import { h, round, s } from "./util.js";

let lastPointer = "mouse";
if (typeof window !== "undefined") {
  window.addEventListener("pointerdown", (e) => { lastPointer = e.pointerType || "mouse"; }, true);
}

/** A screen without hover (a phone, a tablet): the words say "Tap", not "Hover". */
export function touchScreen() {
  return typeof matchMedia === "function" && matchMedia("(hover: none), (pointer: coarse)").matches;
}

/** The word for previewing a choice on this screen. */
export function previewVerb() {
  return touchScreen() ? "Tap" : "Hover";
}

/** A small screen (a phone): the list of options folds away under "All options". */
export function smallScreen() {
  return typeof matchMedia === "function" && matchMedia("(max-width: 700px)").matches;
}

function byMouse() {
  return lastPointer === "mouse" && !touchScreen();
}

function pts(points) {
  return points.map(([x, y]) => `${round(x, 1)},${round(y, 1)}`).join(" ");
}

/** The board's layer of things to tap (above the vehicles, below the spin tool). */
function layer(board) {
  if (!board.picks) {
    board.picks = s("g", { class: "layer-picks" });
    board.world.insertBefore(board.picks, board.over);
  }
  return board.picks;
}

/** Take every pick off the board (a new decision, a choice sent). */
export function clearPicks(board) {
  if (board.picks) board.picks.replaceChildren();
  if (board.svg) {
    board.svg.classList.remove("picking");
    for (const g of board.svg.querySelectorAll("g.vehicle[data-pick]")) {
      g.classList.remove("enemy", "friendly");
      delete g.dataset.pick;
    }
  }
  if (board.host) for (const tray of board.host.querySelectorAll(".reserve-tray")) tray.remove();
  delete document.body.dataset.picked;
}

/**
 * Draw the pending decision's choices on the board and return the panel's part of it
 * ({bar, hint}: the Confirm bar and a line saying what to tap), or null when this decision
 * has nothing to put on the board. ``ctx`` is the table's decision context
 * ({board, submit, onVehicleClick, ...}).
 */
export function boardPick(view, ctx) {
  const board = ctx.board;
  clearPicks(board);
  const p = view.pending;
  if (!p) return null;
  const edges = p.preview && p.preview.edges;
  // A zoom this module chose for an earlier choice (and the player left alone) is undone when
  // the next choice on the board wants none. Zooms wait for ``settle()``: the table calls it
  // once the decision panel is laid out (on a phone the sheet's height shapes the board).
  const zoomed = board.autoZoom && board.zoom === board.autoZoom;
  const settled = (picker) => () => {
    board.autoZoom = null;
    for (const z of picker.zooms) z();
    if (zoomed && !board.autoZoom) board.resetZoom();
  };
  if (p.kind === "drop_offset" && p.domain && edges && Object.keys(edges).length) {
    const picker = new Picker(view, ctx);
    alongEdge(picker, view, p, edges);
    board.svg.classList.add("picking");
    return { bar: picker.bar, hint: picker.hint, settle: settled(picker) };
  }
  if (!p.options) return null;
  const poses = p.preview && p.preview.poses;
  const build = p.kind === "drop_edge" && edges ? (pk, v, pp) => edgePicks(pk, v, pp, edges)
    : p.kind === "template" ? templates
    : p.kind === "activate" || p.kind === "deploy" ? vehicles
      : p.kind === "attack" ? targets
        : poses && Object.keys(poses).length ? (pk, v, pp) => places(pk, v, pp, poses) : null;
  if (!build) return null;
  const picker = new Picker(view, ctx);
  build(picker, view, p);
  if (!picker.count) {
    settled(picker)();
    return null;
  }
  board.svg.classList.add("picking");
  return { bar: picker.noBar ? null : picker.bar, hint: picker.hint, settle: settled(picker) };
}

class Picker {
  constructor(view, ctx) {
    this.view = view;
    this.ctx = ctx;
    this.board = ctx.board;
    this.layer = layer(ctx.board);
    this.items = new Map();
    this.selected = null;
    this.count = 0;
    this.noBar = false; // its choices are confirmed elsewhere (a vehicle tapped shows its moves)
    this.zooms = []; // what to look at, once the panel is laid out
    this.ends = []; // where the choices lie on the table
    this.label = h("span.pick-label", "");
    this.extra = h("span.pick-extra");
    this.go = h("button.primary.board-confirm-go", { type: "button", onclick: () => this.commit() }, "Confirm");
    this.cancel = h("button.small.board-confirm-cancel", { type: "button", onclick: () => this.select(null) }, "Cancel");
    // The bar keeps its place while nothing is picked (the sheet must not change height under
    // the finger between the first tap and the second).
    this.bar = h("div.board-confirm", { role: "group", "aria-label": "the choice picked on the table" },
      h("span.pick-what", h("span.muted.small.picked-word", "Picked: "), this.label, this.extra),
      h("span.pick-buttons", this.go, this.cancel));
    this.bar.classList.add("empty");
    this.label.textContent = "nothing yet";
    this.go.disabled = true;
    this.hint = h("p.hint.board-hint", "");
  }

  /** One choice on the board: ``els`` are its tappable SVG elements. */
  add(key, els, { preview, unpreview = null, commit, label, extra = null }) {
    const item = { key, els, preview, unpreview, commit, label, extra };
    this.items.set(key, item);
    this.count += 1;
    for (const el of els) {
      el.dataset.pick = key;
      el.addEventListener("pointerenter", (e) => {
        if (e.pointerType === "mouse" && !touchScreen()) this.show(item);
      });
      el.addEventListener("pointerleave", (e) => {
        if (e.pointerType === "mouse" && !touchScreen()) this.show(this.items.get(this.selected) || null);
      });
      el.addEventListener("click", (e) => {
        e.stopPropagation();
        this.tap(key);
      });
    }
    return item;
  }

  /** A tap or a click on a choice (or a vehicle standing for one). */
  tap(key) {
    const item = this.items.get(key);
    if (!item) return;
    if (byMouse() || this.selected === key) item.commit(this.choice(item));
    else this.select(key);
  }

  choice(item) {
    return item.chosen ? item.chosen() : undefined;
  }

  select(key) {
    for (const it of this.items.values()) {
      for (const el of it.els) el.classList.toggle("selected", it.key === key);
    }
    this.selected = key;
    const item = key === null ? null : this.items.get(key);
    this.bar.classList.toggle("empty", !item);
    this.go.disabled = !item;
    document.body.dataset.picked = key === null ? "" : key;
    document.dispatchEvent(new CustomEvent("carnage-picked"));
    this.label.textContent = item ? item.label : "nothing yet";
    this.extra.replaceChildren(...(item && item.extra ? [item.extra()] : []));
    this.show(item);
  }

  show(item) {
    for (const it of this.items.values()) if (it.unpreview) it.unpreview();
    if (item) item.preview();
    else if (this.idle) this.idle();
    else this.board.clearOverlays();
  }

  commit() {
    const item = this.items.get(this.selected);
    if (item) item.commit(this.choice(item));
  }

  submit(value) {
    clearPicks(this.board);
    this.ctx.submit(value);
  }
}

// -- movement templates ------------------------------------------------------------------------
function useOf(label) {
  return splitUseLabel(label || "")[1] || "P";
}

function templates(picker, view, p) {
  const vid = p.vehicle || (p.preview && p.preview.vehicle);
  const v = view.vehicles.find((x) => x.id === vid);
  if (!v) return;
  const board = picker.board;
  const pieces = (p.preview && p.preview.templates) || {};
  const ends = (p.preview && p.preview.ends) || {};
  const stops = (p.preview && p.preview.stops) || {};
  const bodies = s("g", { class: "tpl-pick-bodies" });
  const handles = s("g", { class: "tpl-pick-handles" });
  picker.layer.append(bodies, handles);
  // On a phone the moves are small at the table's full size: look closer at the vehicle.
  const at = board.poses.get(v.id) || v;
  const from = { ...v, x: at.x, y: at.y, heading: at.heading };
  for (const o of p.options) {
    const use = useOf(o.label);
    if (use === "-") continue; // not permitted: only from the list (touch it, use it)
    const value = String(o.value);
    const t = parseTemplateValue(value);
    const laid = layTemplate(from, t.id, t);
    // Where the vehicle would end: against what it hits first, if the view says so.
    const stop = stops[value];
    const end = stop || (laid ? laid.final : ends[value]);
    if (!end) continue;
    const cls = `pick tpl-pick use-${use}${stop ? " blocked" : ""}`;
    const body = s("polygon", { class: `${cls} ghost-body`, points: pts(bodyCorners(end, v.length, v.width)) });
    const rad = (end.heading * Math.PI) / 180;
    // The handle is sized in screen pixels (the inner group scales by --u), a finger's width.
    const handle = s("g", { class: `${cls} ghost-handle`, transform: `translate(${round(end.x)},${round(end.y)})` },
      s("g", { class: "sc" },
        s("circle", { class: "hit", r: 13 }),
        s("circle", { class: "dot", r: 6 }),
        s("line", { class: "nose", x1: 0, y1: 0, x2: round(12 * Math.cos(rad)), y2: round(12 * Math.sin(rad)) })),
      s("title", {}, `${splitUseLabel(o.label)[0]} (${TEMPLATE_USE[use]})`));
    bodies.append(body);
    handles.append(handle);
    picker.ends.push([end.x, end.y]);
    const hits = stop ? stop.touched.map((id) => (view.vehicles.find((x) => x.id === id) || { name: id }).name) : [];
    picker.add(value, [body, handle], {
      label: `${splitUseLabel(o.label)[0]} (${TEMPLATE_USE[use]})${hits.length ? `: stops against ${hits.join(", ")}` : ""}`,
      preview: () => {
        board.showTemplate(vid, t, { pieces: pieces[value], end: ends[value] });
        if (stop) board.under.append(s("polygon", { class: "stop-ghost", points: pts(bodyCorners(stop, v.length, v.width)) }));
      },
      commit: () => picker.submit(o.value),
    });
  }
  // A phone looks closely at the vehicle; a larger screen at every ghost at once.
  const spots = [[at.x, at.y], ...picker.ends];
  picker.zooms.push(() => (smallScreen() ? focusOn(board, v.id) : fitAround(board, spots, 90, true)));
  const verb = previewVerb();
  picker.hint.textContent = touchScreen()
    ? "Tap a ghost on the table to see the move; tap it again (or Confirm) to make it. Green: trivial, white: permitted, orange: hazardous; ringed red: it hits something."
    : `${verb} a ghost on the table to see the move; click it to make it. Green: trivial, white: permitted, orange: hazardous; ringed red: it hits something.`;
}

// -- vehicles: which to activate or deploy -------------------------------------------------------
function vehicles(picker, view, p) {
  const board = picker.board;
  const ids = p.options.map((o) => String(o.value));
  const onBoard = new Set(board.onTable(view).map((v) => v.id));
  const ready = ids.filter((id) => onBoard.has(id));
  // Vehicles still off the table (to deploy) wait in a tray on the board's corner.
  const waiting = ids.filter((id) => !onBoard.has(id) && view.vehicles.some((x) => x.id === id));
  if (!ready.length && !waiting.length) return;
  // Activating with the table's preview (the decision panel's): a vehicle tapped shows its
  // templates at once, drawn on the board as ghosts (nothing is sent); a ghost then sends the
  // vehicle, its template and its skid dice in one action.
  const show = p.kind === "activate" && picker.ctx.preview ? picker.ctx.onVehicleClick : null;
  const submitNow = (id) => {
    if (show) { show(id); return; }
    const opt = p.options.find((o) => String(o.value) === id);
    if (opt) picker.submit(opt.value);
  };
  for (const id of ready) {
    const v = view.vehicles.find((x) => x.id === id);
    const el = board.vehicleEls.get(id);
    picker.add(id, [], {
      label: v ? `${v.name} (gear ${v.gear})` : id,
      preview: () => board.setFocus(id, ids),
      unpreview: () => board.setFocus(null, ids),
      commit: () => submitNow(id),
    });
    if (el) el.g.dataset.pick = id;
  }
  if (waiting.length) {
    const tray = h("div.reserve-tray", { role: "group", "aria-label": "vehicles waiting to come on the table" },
      h("span.small.muted", "Waiting to deploy"));
    for (const id of waiting) {
      const v = view.vehicles.find((x) => x.id === id);
      const colour = v.neutral ? v.colour : board.colourOf(v.player);
      const chip = h("div.reserve-chip", { dataset: { id }, title: v.name },
        h("span.reserve-car", { style: { background: colour } }), h("span", v.name));
      tray.append(chip);
      picker.add(id, [chip], { label: v.name, preview: () => {}, commit: () => submitNow(id) });
    }
    board.host.append(tray);
  }
  picker.idle = () => board.setFocus(null, ids);
  if (ready.length) {
    picker.zooms.push(() => fitAround(board, ready.map((id) => { const at = board.poses.get(id) || view.vehicles.find((x) => x.id === id); return [at.x, at.y]; })));
  }
  // The board's own click on a clickable vehicle lands here.
  picker.ctx.onVehicleClick = show || ((id) => picker.tap(id));
  const what = ready.length ? "a ringed vehicle" : "a vehicle waiting to deploy (top of the table)";
  if (show) {  // nothing to confirm here: the moves shown have their own Confirm bar
    picker.hint.textContent = `${touchScreen() ? "Tap" : "Click"} a ringed vehicle to see its moves.`;
    picker.noBar = true;
    return;
  }
  picker.hint.textContent = touchScreen()
    ? `Tap ${what} to pick it; tap it again (or Confirm) to choose it.`
    : `Click ${what} to choose it.`;
}

// -- attacks: tap the target -------------------------------------------------------------------
function targets(picker, view, p) {
  const board = picker.board;
  const weapons = (p.preview && p.preview.weapons) || [];
  const byKey = new Map(weapons.map((w) => [w.key, w]));
  const shooter = view.vehicles.find((x) => x.id === p.vehicle);
  const byTarget = new Map();
  for (const o of p.options) {
    const value = String(o.value);
    if (!value.includes(">")) continue;
    const [key, target] = value.split(">");
    if (!byTarget.has(target)) byTarget.set(target, []);
    byTarget.get(target).push({ key, opt: o });
  }
  const stop = p.options.find((o) => !String(o.value).includes(">"));
  const showFor = (target) => {
    const list = byTarget.get(target) || [];
    const polys = list.flatMap(({ key }) => {
      const w = byKey.get(key);
      return w ? (w.polygons || []).map((polygon) => ({ polygon, kind: w.arc })) : [];
    });
    board.showShots(polys, [target]);
  };
  const showAll = () => {
    const polys = weapons.flatMap((w) => (w.polygons || []).map((polygon) => ({ polygon, kind: w.arc })));
    board.showShots(polys, [...byTarget.keys()]);
  };
  const ids = [...byTarget.keys()];
  board.setFocus(p.vehicle, ids);
  const onTable = board.onTable(view);
  // Friendly vehicles marked as such: never a target, visibly not one.
  if (shooter) {
    for (const v of onTable) {
      if (v.id === shooter.id || v.player !== shooter.player) continue;
      const at = board.poses.get(v.id) || v;
      picker.layer.append(s("g", { class: "friendly-mark", "data-id": v.id },
        s("circle", { cx: round(at.x), cy: round(at.y), r: round(Math.max(v.length, v.width) / 2 + 8) }),
        s("title", {}, `${v.name}: friendly`)));
    }
  }
  for (const [target, list] of byTarget) {
    const tv = view.vehicles.find((x) => x.id === target);
    let chosen = list[0];
    const chooser = () => {
      if (list.length < 2) {
        const w = byKey.get(list[0].key);
        return h("span.small", ` with ${w ? w.name : list[0].key}`);
      }
      return h("select.pick-weapon", {
        "aria-label": "the weapon to fire",
        onchange: (e) => { chosen = list.find((x) => x.key === e.target.value) || list[0]; },
      }, list.map(({ key }) => {
        const w = byKey.get(key);
        return h("option", { value: key, selected: key === chosen.key }, w ? `${w.name} (${w.arc})` : key);
      }));
    };
    // A friendly vehicle may be shot at too (nothing forbids it), but it is marked as a friend.
    const el = board.vehicleEls.get(target);
    if (el) {
      el.g.classList.toggle("enemy", !shooter || !tv || tv.player !== shooter.player);
      el.g.classList.toggle("friendly", Boolean(shooter && tv && tv.player === shooter.player));
      el.g.dataset.pick = target;
    }
    const item = picker.add(target, [], {
      label: `at ${tv ? tv.name : target}`,
      preview: () => showFor(target),
      commit: () => picker.submit(chosen.opt.value),
      extra: chooser,
    });
    // A mouse click fires at once only where one weapon can; else it picks the target.
    item.single = list.length === 1;
  }
  picker.idle = showAll;
  picker.zooms.push(() => fitAround(board, [shooter, ...ids.map((id) => view.vehicles.find((x) => x.id === id))]
    .filter(Boolean).map((v) => { const at = board.poses.get(v.id) || v; return [at.x, at.y]; })));
  picker.ctx.onVehicleClick = (id) => {
    const item = picker.items.get(id);
    if (!item) return;
    if (byMouse() && !item.single && picker.selected !== id) picker.select(id);
    else picker.tap(id);
  };
  if (stop) {
    picker.bar.querySelector(".pick-buttons").append(
      h("button.small.board-hold", { type: "button", onclick: () => picker.submit(stop.value) }, "Hold fire"));
    picker.bar.classList.add("has-stop");
  }
  picker.hint.textContent = touchScreen()
    ? "Tap a ringed enemy to aim at it; tap it again (or Confirm) to fire. Friendly vehicles are marked in green."
    : "Click a ringed enemy on the table to fire at it. Friendly vehicles are marked in green.";
}

/** On a phone, zoom so that ``points`` (world [x, y]) fill the board with a margin of ``pad``
 * table units, if that means looking closer (never further than the whole table). */
function focusOn(board, id) {
  board.focusVehicle(id);
  board.autoZoom = board.zoom;
}

function fitAround(board, points, pad = 120, anyScreen = false) {
  if (!(smallScreen() || anyScreen) || !points.length) return;
  const sp = points.map(([x, y]) => board._toS(x, y));
  const xs = sp.map((q) => q[0]);
  const ys = sp.map((q) => q[1]);
  const bw = Math.max(...xs) - Math.min(...xs) + 2 * pad;
  const bh = Math.max(...ys) - Math.min(...ys) + 2 * pad;
  const r = board.host.getBoundingClientRect();
  const u = Number(board.svg.style.getPropertyValue("--u")) || 1;
  if (!r.width || !r.height) return;
  const k = Math.min(4, (u * board.zoom.k) / Math.max(bw / r.width, bh / r.height));
  if (k <= 1.05) return;
  board.zoom = { k, cx: (Math.max(...xs) + Math.min(...xs)) / 2, cy: (Math.max(...ys) + Math.min(...ys)) / 2 };
  board._fit();
  board.autoZoom = board.zoom;
}

/** Places a few millimetres apart are too close to tap at the table's full size: zoom in on
 * them (centred) until the closest two are a fingertip apart on the screen, at most 6x. */
function lookCloser(board, poses) {
  if (poses.length < 2) return;
  let near = Infinity;
  for (let i = 0; i < poses.length; i++) {
    for (let j = i + 1; j < poses.length; j++) {
      near = Math.min(near, Math.hypot(poses[i].x - poses[j].x, poses[i].y - poses[j].y));
    }
  }
  const u = Number(board.svg.style.getPropertyValue("--u")) || 1; // table units per pixel now
  const FINGER = touchScreen() ? 30 : 16;
  if (!(near > 0) || near / u >= FINGER) return;
  const k = Math.min(6, board.zoom.k * (FINGER * u) / near);
  const x = poses.reduce((a, q) => a + q.x, 0) / poses.length;
  const y = poses.reduce((a, q) => a + q.y, 0) / poses.length;
  const rot = board.isRotated();
  board.zoom = { k, cx: rot ? y : x, cy: rot ? x : board.H - y };
  board._fit();
  board.autoZoom = board.zoom;
}

// -- places: starting grid, spawn points, where a vehicle comes back -----------------------------
function places(picker, view, p, poses) {
  const vid = p.vehicle || (p.preview && p.preview.vehicle);
  const v = view.vehicles.find((x) => x.id === vid);
  if (!v) return;
  const board = picker.board;
  const marks = s("g", { class: "place-picks" });
  picker.layer.append(marks);
  picker.zooms.push(() => lookCloser(board, Object.values(poses)));
  p.options.forEach((o, i) => {
    const pose = poses[String(o.value)];
    if (!pose) return;
    const body = s("polygon", { class: "pick place-pick", points: pts(bodyCorners(pose, v.length, v.width)) });
    const n = s("g", { class: "pick place-pick place-number", transform: `translate(${round(pose.x)},${round(pose.y)}) ${board.lin()}` },
      s("g", { class: "sc" },
        s("circle", { r: 12 }),
        s("text", { "text-anchor": "middle", "dominant-baseline": "central" }, String(i + 1))),
      s("title", {}, o.label));
    marks.append(body, n);
    picker.add(String(o.value), [body, n], {
      label: o.label,
      preview: () => board.showGhost({ ...pose }, v),
      commit: () => picker.submit(o.value),
    });
  });
  picker.hint.textContent = touchScreen()
    ? `Tap a numbered place on the table to see ${v.name} there; tap it again (or Confirm) to put it there.`
    : `Hover a numbered place on the table to see ${v.name} there; click it to put it there.`;
}

// -- dropped weapons: off which edge, and where along it ----------------------------------------
function edgeLine(a, b, cls) {
  return s("line", { class: cls, x1: round(a[0]), y1: round(a[1]), x2: round(b[0]), y2: round(b[1]) });
}

function edgePicks(picker, view, p, edges) {
  const board = picker.board;
  const g = s("g", { class: "edge-picks" });
  picker.layer.append(g);
  for (const o of p.options) {
    const seg = edges[String(o.value)];
    if (!seg) continue;
    const [a, b] = seg;
    // The edge's letter a little outside the edge, away from the vehicle's middle.
    const v = view.vehicles.find((x) => x.id === p.vehicle);
    const m0 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const out = v ? Math.hypot(m0[0] - v.x, m0[1] - v.y) || 1 : 1;
    const mid = v ? [m0[0] + (m0[0] - v.x) / out * 16, m0[1] + (m0[1] - v.y) / out * 16] : m0;
    const line = edgeLine(a, b, "pick edge-pick");
    const hit = edgeLine(a, b, "pick edge-hit");
    const word = s("g", { class: "pick edge-word", transform: `translate(${round(mid[0])},${round(mid[1])}) ${board.lin()}` },
      s("g", { class: "sc" }, s("circle", { r: 11 }),
        s("text", { "text-anchor": "middle", "dominant-baseline": "central" }, String(o.value)[0].toUpperCase())),
      s("title", {}, o.label));
    g.append(line, hit, word);
    picker.add(String(o.value), [line, hit, word], {
      label: o.label,
      preview: () => {},
      commit: () => picker.submit(o.value),
    });
  }
  const v = view.vehicles.find((x) => x.id === p.vehicle);
  if (v && smallScreen()) picker.zooms.push(() => focusOn(board, v.id));
  picker.hint.textContent = touchScreen()
    ? "Tap an edge of the vehicle on the table to drop it off; tap it again (or Confirm) to choose it."
    : "Click an edge of the vehicle on the table to drop it off that edge.";
}

/** Where along the chosen edge the burst touches: tap (or point at) the edge; the offset runs
 * from the segment's first end (the domain's low end) to its second (its high end). */
function alongEdge(picker, view, p, edges) {
  const board = picker.board;
  const d = p.domain;
  const seg = edges[p.preview.edge] || Object.values(edges)[0];
  const [a, b] = seg;
  const g = s("g", { class: "edge-picks along" });
  const line = edgeLine(a, b, "edge-pick chosen");
  const hit = edgeLine(a, b, "pick edge-hit");
  const mark = s("g", { class: "edge-mark" }, s("g", { class: "sc" }, s("circle", { r: 9 })));
  g.append(line, hit, mark);
  picker.layer.append(g);
  board.stopSpin();
  let offset = Math.max(d.low, Math.min(d.high, 0));
  const place = (off) => {
    const t = (off - d.low) / ((d.high - d.low) || 1);
    mark.setAttribute("transform", `translate(${round(a[0] + (b[0] - a[0]) * t)},${round(a[1] + (b[1] - a[1]) * t)})`);
  };
  const at = (e) => {
    const w = board.toWorld(e);
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const t = Math.max(0, Math.min(1, ((w.x - a[0]) * dx + (w.y - a[1]) * dy) / ((dx * dx + dy * dy) || 1)));
    return Math.round(d.low + t * (d.high - d.low));
  };
  // The panel's own number and slider follow the board.
  const tellPanel = (off) => {
    const n = document.querySelector("#decision input.angle-number");
    if (n) {
      n.value = String(off);
      n.dispatchEvent(new Event("input"));
    }
  };
  const item = picker.add("edge", [], {
    label: "",
    preview: () => place(offset),
    commit: () => picker.submit(offset),
  });
  hit.addEventListener("pointermove", (e) => {
    if (e.pointerType === "mouse" && !touchScreen()) place(at(e));
  });
  // A tap sets the place (and previews it); tapping the mark again, or Confirm, chooses it.
  hit.addEventListener("click", (e) => {
    const off = at(e);
    const again = picker.selected === "edge" && Math.abs(off - offset) <= Math.max(2, (d.high - d.low) / 15);
    offset = again ? offset : off;
    item.label = `${offset > 0 ? "+" : ""}${offset} mm from the middle`;
    tellPanel(offset);
    if (byMouse() || again) picker.submit(offset);
    else picker.select("edge");
  }, true);
  place(offset);
  const v = view.vehicles.find((x) => x.id === p.vehicle);
  if (v && smallScreen()) picker.zooms.push(() => focusOn(board, v.id));
  picker.hint.textContent = touchScreen()
    ? "Tap the edge on the table where it touches; tap the same place again (or Confirm) to drop it there."
    : "Click the edge on the table where it touches.";
}
