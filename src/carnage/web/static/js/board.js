// The play area: an SVG tabletop drawn from a GameView (table, terrain, lines, vehicles), with
// overlays for the pending decision (template ghosts, arcs of fire, spin handles), pose
// tweening between views, zoom and pan.
import { bodyCorners, layTemplate } from "./templates.js";
import { round, s, seatColour } from "./util.js";

const RAD = Math.PI / 180;
const MARGIN = 28;
const TWEEN_MS = 750;

function pts(points) {
  return points.map(([x, y]) => `${round(x, 1)},${round(y, 1)}`).join(" ");
}

function normDelta(a) {
  let d = ((a % 360) + 540) % 360 - 180;
  if (d === -180) d = 180;
  return d;
}

function ease(t) {
  return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
}

/** A small greyscale noise tile (data URL) for the mat's grain, made once per page. */
let grainUrl = null;
function grain() {
  if (grainUrl) return grainUrl;
  const c = document.createElement("canvas");
  c.width = c.height = 96;
  const ctx = c.getContext("2d");
  if (!ctx) return "";
  const img = ctx.createImageData(96, 96);
  let seed = 1234567;
  for (let i = 0; i < img.data.length; i += 4) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const v = 90 + (seed % 120);
    img.data[i] = img.data[i + 1] = img.data[i + 2] = v;
    img.data[i + 3] = 60 + (seed % 50);
  }
  ctx.putImageData(img, 0, 0);
  grainUrl = c.toDataURL();
  return grainUrl;
}

function obstacleKind(o) {
  if (o.wreck_of) return "wreck";
  const id = String(o.id).toLowerCase();
  for (const k of ["rock", "crate", "barrier", "barrel", "building", "wall", "tree", "car"]) {
    if (id.includes(k)) return k;
  }
  return o.tall ? "building" : "rock";
}

export class Board {
  /**
   * @param {HTMLElement} host element to fill
   * @param {{onVehicleClick?: (id: string) => void}} opts
   */
  constructor(host, opts = {}) {
    this.host = host;
    this.opts = opts;
    this.view = null;
    this.poses = new Map(); // vehicle id -> {x, y, heading} as drawn now
    this.vehicleEls = new Map();
    this.clickable = new Set();
    this.rotated = null; // null = automatic
    this.zoom = { k: 1, cx: null, cy: null };
    this.anim = null;
    this.spin = null;
    this.tweenMs = opts.tweenMs ?? TWEEN_MS;
    this.svg = s("svg", { class: "board", xmlns: "http://www.w3.org/2000/svg", role: "img", "aria-label": "the table" });
    this.defs = s("defs");
    this.svg.append(this.defs);
    this.backdrop = s("rect", { class: "backdrop", x: -5000, y: -5000, width: 10000, height: 10000, fill: "url(#wood)" });
    this.svg.append(this.backdrop);
    this.world = s("g", { class: "world" });
    this.svg.append(this.world);
    for (const name of ["mat", "surfaces", "lines", "obstacles", "trails", "under", "vehicles", "over", "labels"]) {
      this[name] = s("g", { class: `layer-${name}` });
      this.world.append(this[name]);
    }
    host.append(this.svg);
    this._defs();
    this._panZoom();
    new ResizeObserver(() => this._fit()).observe(host);
  }

  // ------------------------------------------------------------------ coordinates
  get W() { return this.view ? this.view.table.width : 900; }
  get H() { return this.view ? this.view.table.height : 1200; }

  isRotated() {
    if (this.rotated !== null) return this.rotated;
    const r = this.host.getBoundingClientRect();
    const landscape = r.width >= r.height;
    return landscape ? this.H > this.W : this.W > this.H;
  }

  /** The world's linear part as an SVG matrix (both choices are their own inverse). */
  lin() {
    return this.isRotated() ? "matrix(0,1,1,0,0,0)" : "matrix(1,0,0,-1,0,0)";
  }

  /** Upright text at a world point. */
  label(x, y, text, cls = "label", extra = {}) {
    return s("text", { class: cls, transform: `translate(${round(x, 1)},${round(y, 1)}) ${this.lin()}`, ...extra }, text);
  }

  toWorld(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const m = this.world.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = pt.matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  setRotation(rotated) {
    this.rotated = rotated;
    this._fit();
    if (this.view) this._drawStatic(this.view);
    this._drawVehicles();
  }

  _fit() {
    const rot = this.isRotated();
    // The table turns a quarter when the board's box changes shape: a zoomed view keeps
    // looking at the same place of the table.
    if (this._rotWas !== undefined && this._rotWas !== rot && this.zoom.cx !== null) {
      const { cx, cy } = this.zoom;
      const [x, y] = this._rotWas ? [cy, cx] : [cx, this.H - cy];
      [this.zoom.cx, this.zoom.cy] = rot ? [y, x] : [x, this.H - y];
    }
    this._rotWas = rot;
    const w = rot ? this.H : this.W;
    const hgt = rot ? this.W : this.H;
    this.world.setAttribute("transform", rot ? "matrix(0,1,1,0,0,0)" : `matrix(1,0,0,-1,0,${this.H})`);
    const k = this.zoom.k;
    const vw = (w + 2 * MARGIN) / k;
    const vh = (hgt + 2 * MARGIN) / k;
    const cx = this.zoom.cx ?? w / 2;
    const cy = this.zoom.cy ?? hgt / 2;
    this.svg.setAttribute("viewBox", `${round(cx - vw / 2)} ${round(cy - vh / 2)} ${round(vw)} ${round(vh)}`);
    // --u: table units per screen pixel, so labels keep a readable size at any zoom.
    const r = this.host.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) {
      this.svg.style.setProperty("--u", String(round(Math.max(vw / r.width, vh / r.height), 4)));
    }
    if (this.view) this._drawVehicles(); // names are sized in screen pixels: place them again
  }

  _panZoom() {
    const svg = this.svg;
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const vb = svg.viewBox.baseVal;
      const r = svg.getBoundingClientRect();
      const scale = Math.max(vb.width / r.width, vb.height / r.height);
      // cursor in viewBox coordinates (meet: centred)
      const mx = vb.x + vb.width / 2 + (e.clientX - (r.left + r.width / 2)) * scale;
      const my = vb.y + vb.height / 2 + (e.clientY - (r.top + r.height / 2)) * scale;
      const f = e.deltaY < 0 ? 1.15 : 1 / 1.15;
      const k = Math.min(6, Math.max(1, this.zoom.k * f));
      const real = k / this.zoom.k;
      const cx = vb.x + vb.width / 2;
      const cy = vb.y + vb.height / 2;
      this.zoom = { k, cx: mx + (cx - mx) / real, cy: my + (cy - my) / real };
      if (k === 1) this.zoom = { k: 1, cx: null, cy: null };
      this._fit();
    }, { passive: false });
    // One finger (or the mouse) drags the zoomed table; two fingers pinch it. A press that
    // moves less than DRAG_PX is a tap or a click and reaches what is under it; one that pans
    // does not click what it ends on.
    const DRAG_PX = 6;
    const down = new Map(); // pointer id -> {x, y}
    let drag = null;
    let pinch = null;
    let moved = false;
    const extent = () => {
      const rot = this.isRotated();
      return rot ? [this.H, this.W] : [this.W, this.H];
    };
    const unitsPerPx = (vb) => {
      const r = svg.getBoundingClientRect();
      return [Math.max(vb.width / r.width, vb.height / r.height), r];
    };
    const startPinch = () => {
      const [a, b] = [...down.values()];
      const vb = svg.viewBox.baseVal;
      const [scale, r] = unitsPerPx(vb);
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      pinch = {
        dist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), k: this.zoom.k, scale,
        ax: vb.x + vb.width / 2 + (mx - (r.left + r.width / 2)) * scale,
        ay: vb.y + vb.height / 2 + (my - (r.top + r.height / 2)) * scale,
      };
      drag = null;
      moved = true;
    };
    svg.addEventListener("pointerdown", (e) => {
      if (this.spin && this.spin.dragging) return;
      if (e.target.closest && e.target.closest(".spin-handle, .spin-ghost")) return;
      down.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (down.size === 1) moved = false;
      if (down.size === 2) {
        startPinch();
        return;
      }
      if (this.zoom.k === 1 || down.size > 2) return;
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY, vb: svg.viewBox.baseVal, start: { ...this.zoom }, live: false };
    });
    svg.addEventListener("pointermove", (e) => {
      if (!down.has(e.pointerId)) return;
      down.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch && down.size >= 2) {
        const [a, b] = [...down.values()];
        const dist = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
        const k = Math.min(6, Math.max(1, pinch.k * dist / pinch.dist));
        if (k === 1) {
          this.zoom = { k: 1, cx: null, cy: null };
        } else {
          const r = svg.getBoundingClientRect();
          const scale = pinch.scale * pinch.k / k;
          const mx = (a.x + b.x) / 2;
          const my = (a.y + b.y) / 2;
          this.zoom = {
            k,
            cx: pinch.ax - (mx - (r.left + r.width / 2)) * scale,
            cy: pinch.ay - (my - (r.top + r.height / 2)) * scale,
          };
        }
        this._fit();
        return;
      }
      if (!drag || drag.id !== e.pointerId) return;
      if (!drag.live) {
        if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_PX) return;
        drag.live = true;
        moved = true;
        svg.setPointerCapture(e.pointerId);
      }
      const [scale] = unitsPerPx(drag.vb);
      const [w, hgt] = extent();
      this.zoom = {
        k: drag.start.k,
        cx: (drag.start.cx ?? w / 2) - (e.clientX - drag.x) * scale,
        cy: (drag.start.cy ?? hgt / 2) - (e.clientY - drag.y) * scale,
      };
      this._fit();
    });
    const end = (e) => {
      down.delete(e.pointerId);
      if (down.size < 2) pinch = null;
      if (drag && drag.id === e.pointerId) drag = null;
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    // A pan or a pinch clicks nothing.
    svg.addEventListener("click", (e) => {
      if (moved) {
        e.stopPropagation();
        e.preventDefault();
        moved = false;
      }
    }, true);
    svg.addEventListener("dblclick", (e) => {
      if (e.target.closest && e.target.closest(".pick, .vehicle.clickable")) return;
      this.resetZoom();
    });
  }

  resetZoom() {
    this.zoom = { k: 1, cx: null, cy: null };
    this._fit();
  }

  zoomBy(f) {
    const k = Math.min(6, Math.max(1, this.zoom.k * f));
    this.zoom = k === 1 ? { k: 1, cx: null, cy: null } : { ...this.zoom, k };
    this._fit();
  }

  // ------------------------------------------------------------------ defs
  _defs() {
    const g = grain();
    this.defs.innerHTML = `
      <linearGradient id="woodgrad" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#3b2a1d"/><stop offset="0.5" stop-color="#4a3424"/><stop offset="1" stop-color="#2f2117"/>
      </linearGradient>
      <pattern id="wood" width="240" height="40" patternUnits="userSpaceOnUse">
        <rect width="240" height="40" fill="url(#woodgrad)"/>
        <path d="M0 12 C60 8 120 16 240 11 M0 29 C80 33 150 25 240 30" stroke="#2a1c12" stroke-width="2" fill="none" opacity=".6"/>
      </pattern>
      <radialGradient id="matgrad" cx="50%" cy="50%" r="75%">
        <stop offset="0" stop-color="#cdb78f"/><stop offset=".7" stop-color="#bea57a"/><stop offset="1" stop-color="#a48b62"/>
      </radialGradient>
      <pattern id="grain" width="96" height="96" patternUnits="userSpaceOnUse">
        ${g ? `<image href="${g}" width="96" height="96" opacity=".35"/>` : ""}
      </pattern>
      <pattern id="chequer" width="20" height="20" patternUnits="userSpaceOnUse">
        <rect width="20" height="20" fill="#f5f5f5"/><rect width="10" height="10" fill="#111"/><rect x="10" y="10" width="10" height="10" fill="#111"/>
      </pattern>
      <pattern id="stripes" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="16" height="16" fill="#f2f2f2"/><rect width="8" height="16" fill="#c0392b"/>
      </pattern>
      <pattern id="planks" width="10" height="10" patternUnits="userSpaceOnUse">
        <rect width="10" height="10" fill="#b9843f"/><rect width="10" height="1.2" fill="#7e5424"/>
      </pattern>
      <pattern id="hatch" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(35)">
        <rect width="10" height="10" fill="#8d6e4a" fill-opacity=".55"/><rect width="3" height="10" fill="#5d4631" fill-opacity=".5"/>
      </pattern>
      <radialGradient id="rockgrad" cx="35%" cy="35%" r="80%">
        <stop offset="0" stop-color="#9c958b"/><stop offset=".6" stop-color="#6f685f"/><stop offset="1" stop-color="#48433d"/>
      </radialGradient>
      <radialGradient id="oil" cx="50%" cy="50%" r="60%">
        <stop offset="0" stop-color="#1b1f2a"/><stop offset=".8" stop-color="#2c3244"/><stop offset="1" stop-color="#4b3f67"/>
      </radialGradient>
      <filter id="shadow" x="-30%" y="-30%" width="160%" height="160%">
        <feDropShadow dx="2" dy="-3" stdDeviation="2.5" flood-color="#000" flood-opacity=".45"/>
      </filter>
      <filter id="tableshadow" x="-10%" y="-10%" width="120%" height="120%">
        <feDropShadow dx="0" dy="0" stdDeviation="10" flood-color="#000" flood-opacity=".7"/>
      </filter>`;
  }

  // ------------------------------------------------------------------ drawing
  /** Draw a new view; vehicles whose pose changed glide from where they were drawn. */
  update(view, { animate = true } = {}) {
    const sizeChanged = !this.view || this.view.table.width !== view.table.width || this.view.table.height !== view.table.height;
    this.view = view;
    if (sizeChanged) this._fit();
    this._drawStatic(view);
    const targets = new Map();
    for (const v of this.onTable(view)) targets.set(v.id, { x: v.x, y: v.y, heading: v.heading });
    const from = new Map();
    for (const [id, p] of targets) from.set(id, this.poses.get(id) || p);
    if (this.anim) cancelAnimationFrame(this.anim.raf);
    const moving = [...targets].some(([id, p]) => {
      const f = from.get(id);
      return Math.abs(f.x - p.x) > 0.01 || Math.abs(f.y - p.y) > 0.01 || Math.abs(normDelta(p.heading - f.heading)) > 0.01;
    });
    // Tyre tracks: where each vehicle came from in this update.
    if (moving) {
      this.trails.replaceChildren();
      for (const [id, p] of targets) {
        const f = from.get(id);
        if (Math.hypot(f.x - p.x, f.y - p.y) > 1) {
          this.trails.append(s("line", { class: "trail", x1: f.x, y1: f.y, x2: p.x, y2: p.y, "data-id": id }));
        }
      }
    }
    if (!animate || !moving || document.hidden) {
      this.poses = targets;
      this._drawVehicles();
      this.host.dataset.animating = "0";
      return;
    }
    const t0 = performance.now();
    this.host.dataset.animating = "1";
    const step = (now) => {
      const t = Math.min(1, (now - t0) / this.tweenMs);
      const e = ease(t);
      const cur = new Map();
      for (const [id, p] of targets) {
        const f = from.get(id);
        cur.set(id, { x: f.x + (p.x - f.x) * e, y: f.y + (p.y - f.y) * e, heading: f.heading + normDelta(p.heading - f.heading) * e });
      }
      this.poses = cur;
      this._drawVehicles();
      if (t < 1) this.anim = { raf: requestAnimationFrame(step) };
      else {
        this.poses = targets;
        this._drawVehicles();
        this.anim = null;
        this.host.dataset.animating = "0";
      }
    };
    this.anim = { raf: requestAnimationFrame(step) };
  }

  /** Vehicles in play and on the table (not yet deployed ones wait off it). */
  onTable(view) {
    const W = view.table.width;
    const H = view.table.height;
    return view.vehicles.filter((v) => (!v.status || v.status === "active")
      && v.x >= -v.length && v.y >= -v.length && v.x <= W + v.length && v.y <= H + v.length);
  }

  colourOf(player) {
    const p = this.view && this.view.players.find((q) => q.seat === player);
    return seatColour(player, p ? p.colour : null);
  }

  _drawStatic(view) {
    const W = view.table.width;
    const H = view.table.height;
    this.mat.replaceChildren(
      s("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#matgrad)", filter: "url(#tableshadow)" }),
      s("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#grain)" }),
      this._grid(W, H),
      s("rect", { x: 0, y: 0, width: W, height: H, fill: "none", stroke: "#2a1d12", "stroke-width": 3 }),
    );
    this.mat.append(this._scaleBar());
    this.surfaces.replaceChildren(...(view.surfaces || []).map((sf) => {
      const kind = String(sf.kind || "").toLowerCase();
      const fill = kind.includes("treach") || kind.includes("oil") ? "url(#oil)" : "url(#hatch)";
      return s("g", { class: `surface ${kind}`, "data-id": sf.id },
        s("polygon", { points: pts(sf.polygon), fill, stroke: "#4e3b28", "stroke-width": 1.5, "stroke-dasharray": "6 4", opacity: 0.9 }),
        this.label(...centroid(sf.polygon), kind || "surface", "label surface-label"));
    }));
    this.surfaces.append(...(view.dropped || []).map((d) => this._dropped(d)));
    this.lines.replaceChildren(...(view.drawables || []).map((d) => this._drawable(d)));
    this.obstacles.replaceChildren(...(view.obstacles || []).map((o) => this._obstacle(o)));
  }

  /** A dropped weapon's template (mines, oil, smoke, glue...) lying on the table. */
  _dropped(d) {
    const kind = String(d.kind || "").toLowerCase();
    const look = [
      ["oil", "#1f2430", 0.75], ["glue", "#e8d36a", 0.6], ["smoke", "#9aa0a6", 0.55],
      ["napalm", "#e67e22", 0.6], ["mine", "#922b21", 0.45], ["caltrop", "#616a6b", 0.55],
      ["sentry", "#566573", 0.5],
    ].find(([k]) => kind.includes(k)) || ["", "#7d6608", 0.45];
    const poly = d.polygon || [];
    const g = s("g", { class: `dropped ${kind}`, "data-id": d.id },
      s("polygon", { points: pts(poly), fill: look[1], "fill-opacity": look[2], stroke: "#111", "stroke-width": 1, "stroke-dasharray": "3 3" }),
      s("title", {}, `${d.kind} (${String(d.shape || "").replace("_", " ")})`));
    if (poly.length) g.append(this.label(...centroid(poly), kind.replace(/_dropper$/, "").replace(/_/g, " "), "label dropped-label"));
    return g;
  }

  _grid(W, H) {
    const g = s("g", { class: "grid" });
    for (let x = 100; x < W; x += 100) g.append(s("line", { x1: x, y1: 0, x2: x, y2: H }));
    for (let y = 100; y < H; y += 100) g.append(s("line", { x1: 0, y1: y, x2: W, y2: y }));
    return g;
  }

  _scaleBar() {
    // 100 mm, drawn along whichever table axis runs across the screen, below the table.
    const g = s("g", { class: "scalebar" });
    const rot = this.isRotated();
    const seg = (a, b, fillc) => (rot
      ? s("rect", { x: this.W + 5, y: 10 + a, width: 6, height: b - a, fill: fillc, stroke: "#111", "stroke-width": 1 })
      : s("rect", { x: 10 + a, y: -11, width: b - a, height: 6, fill: fillc, stroke: "#111", "stroke-width": 1 }));
    g.append(seg(0, 50, "#111"), seg(50, 100, "#eee"));
    g.append(rot ? this.label(this.W + 19, 150, "100 mm", "label scale-label") : this.label(150, -8, "100 mm", "label scale-label"));
    return g;
  }

  /** One of the scenario's marks (GameView.drawables), whatever the scenario: lines and gates
   * between two markers, zones, tokens, spawn points, labels. */
  _drawable(d) {
    const p = d.points || [];
    const text = d.label || "";
    if (d.kind === "line" || d.kind === "gate") {
      const style = d.style || d.kind;
      // A plain numbered gate shows its number once, in a badge on the way in; the Starting
      // and Finish Lines keep their words (their label names them, number and all).
      const badge = d.kind === "gate" && d.number != null && !d.style;
      const word = badge ? "" : text;
      const g = this._line({ id: d.id, kind: style, a: p[0], b: p[1], label: word });
      if (d.number != null) g.dataset.number = String(d.number);
      const how = d.direction ? "; pass it the way the arrow points" : "";
      g.append(s("title", {}, `${text || (badge ? `Gate ${d.number}` : style)}${how}`));
      if (d.direction) g.append(this._passArrow(p[0], p[1], d.direction, badge ? d.number : null));
      return g;
    }
    const colour = d.owner == null ? "#1e8449" : this.colourOf(d.owner);
    const g = s("g", { class: `scenario ${d.kind} ${d.style || ""}`.trim(), "data-id": d.id });
    if (d.kind === "zone") {
      g.append(s("polygon", { points: pts(p), fill: colour, "fill-opacity": 0.18, stroke: colour, "stroke-width": 2, "stroke-dasharray": "8 4" }));
      if (text) g.append(this.label(...centroid(p), text, "label zone-label"));
    } else if (d.kind === "token") {
      const [x, y] = p[0];
      const hints = String(d.style || "").split(/\s+/);
      if (hints.includes("flag")) {
        // A flag: a pole with a pennant in its owner's colour (a carried one rides smaller).
        const k = hints.includes("carried") ? 0.7 : 1;
        const flag = `M ${round(x)} ${round(y)} l 0 ${round(26 * k)} l ${round(18 * k)} ${round(-6 * k)} l ${round(-18 * k)} ${round(-6 * k)}`;
        g.append(s("circle", { cx: x, cy: y, r: 4 * k, fill: "#111" }),
          s("path", { class: "token-flag", d: flag, fill: colour, stroke: "#111", "stroke-width": 1.5, "stroke-linejoin": "round" }));
      } else if (hints.includes("crate")) {
        g.append(s("rect", { class: "token-crate", x: x - 9, y: y - 9, width: 18, height: 18, fill: "#b9770e", stroke: "#4e342e", "stroke-width": 1.5 }),
          s("path", { d: `M ${round(x - 9)} ${round(y - 9)} L ${round(x + 9)} ${round(y + 9)} M ${round(x + 9)} ${round(y - 9)} L ${round(x - 9)} ${round(y + 9)}`, stroke: "#4e342e", "stroke-width": 1.2 }));
      } else {
        g.append(s("circle", { cx: x, cy: y, r: 10, fill: colour, stroke: "#111", "stroke-width": 1.5 }));
      }
      if (d.number != null) g.append(this.label(x, y, String(d.number), "label token-number"));
      if (text) g.append(s("title", {}, text));
    } else if (d.kind === "spawn") {
      const [x, y] = p[0];
      const [dx, dy] = d.direction || [0, 1];
      const ang = Math.atan2(dy, dx) / RAD;
      g.append(s("g", { transform: `translate(${round(x)},${round(y)}) rotate(${round(ang)})` },
        s("polygon", { points: "12,0 -8,8 -8,-8", fill: "none", stroke: colour, "stroke-width": 2 })));
      if (text) g.append(this.label(x, y - 18, text, "label spawn-label"));
    } else if (text && p.length) {
      g.append(this.label(p[0][0], p[0][1], text, "label scenario-label"));
    }
    return g;
  }

  _line(ln) {
    const [ax, ay] = ln.a;
    const [bx, by] = ln.b;
    const len = Math.hypot(bx - ax, by - ay) || 1;
    const ang = Math.atan2(by - ay, bx - ax) / RAD;
    const finish = ln.kind === "finish";
    const band = finish ? 14 : 8;
    const g = s("g", { class: `line ${ln.kind}`, "data-id": ln.id });
    g.append(s("g", { transform: `translate(${round(ax)},${round(ay)}) rotate(${round(ang)})` },
      s("rect", { x: 0, y: -band / 2, width: len, height: band, fill: finish ? "url(#chequer)" : "#f4f1e8", stroke: "#222", "stroke-width": 0.8, opacity: finish ? 0.95 : 0.9 }),
      finish ? null : s("line", { x1: 0, y1: 0, x2: len, y2: 0, stroke: "#2e7d32", "stroke-width": 2, "stroke-dasharray": "10 6" })));
    for (const [x, y] of [ln.a, ln.b]) g.append(this._flag(x, y, finish));
    // The word goes beyond the flag at ``b``, along the line.
    const ux = (bx - ax) / len;
    const uy = (by - ay) / len;
    const word = ln.label != null ? ln.label : (finish ? "FINISH" : "START");
    if (word) g.append(this.label(bx + ux * 48, by + uy * 48, word, `label line-label ${ln.kind}`));
    return g;
  }

  /** The way a gate or line is passed: an arrow through its middle along ``dir`` (a unit
   * vector), and, for a numbered gate, its number in a badge on the side it is entered from. */
  _passArrow(a, b, dir, number) {
    const [dx, dy] = dir;
    const cx = (a[0] + b[0]) / 2;
    const cy = (a[1] + b[1]) / 2;
    const ang = Math.atan2(dy, dx) / RAD;
    const g = s("g", { class: "pass" });
    g.append(s("g", { transform: `translate(${round(cx)},${round(cy)}) rotate(${round(ang)})` },
      s("polygon", { class: "pass-arrow", points: "-34,-7 22,-7 22,-19 52,0 22,19 22,7 -34,7", fill: "#f4d03f", stroke: "#1b1b1b", "stroke-width": 2 })));
    if (number != null) {
      const bx = cx - dx * 62;
      const by = cy - dy * 62;
      g.append(s("circle", { class: "gate-badge", cx: round(bx), cy: round(by), r: 17, fill: "#1b1b1b", stroke: "#f4d03f", "stroke-width": 3 }),
        this.label(bx, by, String(number), "label gate-number"));
    }
    return g;
  }

  _flag(x, y, finish) {
    return s("g", { class: "flag" },
      s("circle", { cx: x, cy: y, r: 6, fill: finish ? "url(#chequer)" : "#2e7d32", stroke: "#111", "stroke-width": 1.5 }),
      s("circle", { cx: x, cy: y, r: 1.8, fill: "#111" }));
  }

  _obstacle(o) {
    const kind = obstacleKind(o);
    const corners = bodyCorners(o, o.length, o.width);
    const g = s("g", { class: `obstacle ${kind}${o.tall ? " tall" : ""}`, "data-id": o.id });
    const tr = `translate(${round(o.x)},${round(o.y)}) rotate(${round(o.heading)})`;
    const L = o.length;
    const Wd = o.width;
    const inner = s("g", { transform: tr, filter: "url(#shadow)" });
    if (kind === "rock") {
      inner.append(s("rect", { x: -L / 2, y: -Wd / 2, width: L, height: Wd, rx: Math.min(L, Wd) * 0.35, fill: "url(#rockgrad)", stroke: "#37322c", "stroke-width": 1.5 }));
      inner.append(s("path", { d: `M${-L * 0.25} ${-Wd * 0.1} l${L * 0.18} ${Wd * 0.2} l${L * 0.2} ${-Wd * 0.12}`, stroke: "#3b3631", "stroke-width": 1.2, fill: "none", opacity: 0.7 }));
    } else if (kind === "crate") {
      inner.append(s("rect", { x: -L / 2, y: -Wd / 2, width: L, height: Wd, fill: "url(#planks)", stroke: "#5a3a17", "stroke-width": 2 }));
      inner.append(s("path", { d: `M${-L / 2} ${-Wd / 2} L${L / 2} ${Wd / 2} M${-L / 2} ${Wd / 2} L${L / 2} ${-Wd / 2}`, stroke: "#6b4520", "stroke-width": 3 }));
    } else if (kind === "barrier") {
      inner.append(s("rect", { x: -L / 2, y: -Wd / 2, width: L, height: Wd, rx: 2, fill: "url(#stripes)", stroke: "#4a1410", "stroke-width": 1.5 }));
    } else if (kind === "wreck") {
      inner.append(s("rect", { x: -L / 2, y: -Wd / 2, width: L, height: Wd, rx: 4, fill: "#2b2724", stroke: "#111", "stroke-width": 1.5 }));
      inner.append(s("path", { d: `M${-L * 0.35} ${-Wd * 0.25} l${L * 0.2} ${Wd * 0.4} l${L * 0.15} ${-Wd * 0.3} l${L * 0.25} ${Wd * 0.35}`, stroke: "#e67e22", "stroke-width": 2, fill: "none", opacity: 0.8 }));
      inner.append(s("circle", { cx: L * 0.1, cy: 0, r: Math.min(L, Wd) * 0.18, fill: "#c0392b", opacity: 0.5 }));
    } else {
      inner.append(s("rect", { x: -L / 2, y: -Wd / 2, width: L, height: Wd, rx: 3, fill: o.tall ? "#5d4037" : "#8d6e63", stroke: "#3e2723", "stroke-width": 1.5 }));
    }
    if (o.tall) inner.append(s("rect", { x: -L / 2 + 4, y: -Wd / 2 + 4, width: L - 8, height: Wd - 8, fill: "none", stroke: "#000", "stroke-opacity": 0.35, "stroke-width": 2 }));
    g.append(inner);
    g.append(s("polygon", { class: "footprint", points: pts(corners), fill: "none" }));
    const name = o.wreck_of ? "wreck" : `${kind}${o.destructible ? " (destructible)" : ""}${o.tall ? " (tall)" : ""}`;
    g.append(s("title", {}, `${o.id}: ${name}`));
    return g;
  }

  _drawVehicles() {
    if (!this.view) return;
    const active = this.onTable(this.view);
    const seen = new Set();
    for (const v of active) {
      seen.add(v.id);
      const p = this.poses.get(v.id) || v;
      let el = this.vehicleEls.get(v.id);
      if (!el) {
        el = this._vehicleEl(v);
        this.vehicleEls.set(v.id, el);
        this.vehicles.append(el.g);
        this.labels.append(el.label);
      }
      this._styleVehicle(el, v);
      el.g.setAttribute("transform", `translate(${round(p.x)},${round(p.y)}) rotate(${round(p.heading)})`);
    }
    this._placeLabels(active);
    for (const [id, el] of this.vehicleEls) {
      if (!seen.has(id)) {
        el.g.remove();
        el.label.remove();
        this.vehicleEls.delete(id);
      }
    }
  }

  /** Screen-aligned coordinates of a world point (x right, y down on the screen). */
  _toS(x, y) {
    return this.isRotated() ? [y, x] : [x, this.H - y];
  }

  _fromS(sx, sy) {
    return this.isRotated() ? [sy, sx] : [sx, this.H - sy];
  }

  /**
   * Put each vehicle's name where it covers no other vehicle nor another name: below it if
   * that is clear, else above, right or left (the least crowded place when none is clear).
   */
  _placeLabels(vehicles) {
    const u = Number(this.svg.style.getPropertyValue("--u")) || 1;
    const bodies = vehicles.map((v) => {
      const p = this.poses.get(v.id) || v;
      const pts = bodyCorners(p, v.length, v.width).map(([x, y]) => this._toS(x, y));
      const xs = pts.map((q) => q[0]);
      const ys = pts.map((q) => q[1]);
      return { id: v.id, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
    });
    const overlap = (a, b) => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0))
      * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
    const placed = [];
    vehicles.forEach((v, i) => {
      const el = this.vehicleEls.get(v.id);
      if (!el) return;
      const b = bodies[i];
      const cx = (b.x0 + b.x1) / 2;
      const cy = (b.y0 + b.y1) / 2;
      const chars = Math.max(v.name.length, el.info.textContent.length);
      const w = chars * 6.6 * u;
      const hgt = 25 * u;
      const gap = 3 * u;
      // Candidate label boxes (centre x, top y) in screen-aligned units.
      const cands = [
        [cx, b.y1 + gap],
        [cx, b.y0 - gap - hgt],
        [b.x1 + gap + w / 2, cy - hgt / 2],
        [b.x0 - gap - w / 2, cy - hgt / 2],
      ];
      let best = null;
      for (const [lx, top] of cands) {
        const box = { x0: lx - w / 2, x1: lx + w / 2, y0: top, y1: top + hgt };
        let cost = 0;
        bodies.forEach((o, j) => { if (j !== i) cost += overlap(box, o); });
        for (const q of placed) cost += overlap(box, q);
        if (!best || cost < best.cost - 1e-9) best = { cost, box, lx, top };
        if (cost === 0) break;
      }
      placed.push(best.box);
      const [wx, wy] = this._fromS(best.lx, best.top + 10 * u);
      el.label.setAttribute("transform", `translate(${round(wx)},${round(wy)}) ${this.lin()}`);
    });
  }

  _vehicleEl(v) {
    const L = v.length;
    const Wd = v.width;
    const g = s("g", { class: "vehicle", "data-id": v.id });
    const body = s("rect", { class: "body", x: -L / 2, y: -Wd / 2, width: L, height: Wd, rx: Math.min(5, Wd / 4) });
    const ring = s("rect", { class: "ring", x: -L / 2 - 5, y: -Wd / 2 - 5, width: L + 10, height: Wd + 10, rx: 8 });
    const hood = s("rect", { class: "hood", x: L * 0.12, y: -Wd / 2 + 2.5, width: L * 0.36 - 2.5, height: Wd - 5, rx: 2 });
    const screen = s("rect", { class: "screen", x: L * 0.02, y: -Wd / 2 + 3, width: L * 0.1, height: Wd - 6, rx: 1.5 });
    const stripe = s("rect", { class: "stripe", x: -L / 2 + 3, y: -Wd * 0.08, width: L * 0.55, height: Wd * 0.16 });
    const nose = s("path", { class: "nose", d: `M${L / 2 - 9} ${-Wd / 2 + 3} L${L / 2 + 7} 0 L${L / 2 - 9} ${Wd / 2 - 3} Z` });
    const title = s("title", {}, v.name);
    // Tyres peeking out from under the body, front and rear.
    const tl = Math.max(6, L * 0.2);
    const tyres = [L / 2 - tl * 0.5 - L * 0.08, -L / 2 + tl * 0.5 + L * 0.08].flatMap((ax) =>
      [-1, 1].map((side) => s("rect", {
        class: "tyre", x: ax - tl / 2, y: side * (Wd / 2) - 2.5, width: tl, height: 5, rx: 1.5,
      })));
    g.append(ring, ...tyres, body, stripe, screen, hood, nose, title);
    g.addEventListener("click", (e) => {
      if (this.clickable.has(v.id) && this.opts.onVehicleClick) {
        e.stopPropagation();
        this.opts.onVehicleClick(v.id);
      }
    });
    const label = s("g", { class: "vlabel", "data-id": v.id },
      s("text", { class: "vname", y: 0 }, v.name),
      s("text", { class: "vinfo", y: "1.2em" }, ""));
    return { g, body, label, info: label.lastChild };
  }

  _styleVehicle(el, v) {
    // A vehicle no player owns (a creature, Truckasaurus) keeps its own colour.
    const colour = v.neutral ? v.colour : this.colourOf(v.player);
    el.body.setAttribute("fill", colour);
    el.g.classList.toggle("clickable", this.clickable.has(v.id));
    el.g.classList.toggle("active", Boolean(this.activeId) && this.activeId === v.id);
    el.g.classList.toggle("done", Boolean(v.activated));
    el.info.textContent = `G${v.gear}${v.hazards ? ` · ⚠${v.hazards}` : ""} · ${v.hull_points}/${v.hull}`;
  }

  /** Mark the vehicle currently acting, and which vehicles may be clicked. */
  setFocus(activeId, clickable = []) {
    this.activeId = activeId;
    this.clickable = new Set(clickable);
    this._drawVehicles();
  }

  // ------------------------------------------------------------------ overlays
  clearOverlays() {
    this.under.replaceChildren();
    this.over.replaceChildren();
    this.spin = null;
    this.svg.classList.remove("spinning");
  }

  vehicle(id) {
    return this.view ? this.view.vehicles.find((v) => v.id === id) : null;
  }

  /**
   * Ghost of a movement template and where the vehicle would end unobstructed. ``pieces`` are
   * the server's convex pieces of the laid template (authoritative); without them the shape
   * comes from templates.js.
   */
  showTemplate(vehicleId, choice, { keep = false, pieces = null, end = null } = {}) {
    if (!keep) this.under.replaceChildren();
    const v = this.vehicle(vehicleId);
    if (!v || !choice) return;
    const laid = layTemplate(v, choice.id, choice);
    const g = s("g", { class: `template-ghost${keep ? " placed" : ""}`, "data-template": choice.id });
    if (pieces && pieces.length) {
      g.append(s("g", { class: "template-pieces" }, pieces.map((pc) => s("polygon", { points: pts(pc) }))));
    } else if (laid) {
      g.append(s("polygon", { class: "template", points: pts(laid.outline) }));
    }
    if (laid) {
      g.append(s("polyline", { class: "centreline", points: pts(laid.centre) }));
      g.append(s("polygon", { class: "end-ghost", points: pts(bodyCorners(laid.final, v.length, v.width)) }));
    } else if (end) {
      // A team's own template (Legacy): the server says where the vehicle would end.
      g.append(s("polygon", { class: "end-ghost", points: pts(bodyCorners(end, v.length, v.width)) }));
    }
    this.under.append(g);
  }

  /** A dashed outline of a vehicle at another pose (e.g. a place on the starting grid). */
  showGhost(pose, v) {
    this.under.replaceChildren(
      s("polygon", { class: "end-ghost", points: pts(bodyCorners(pose, v.length, v.width)) }));
  }

  /** Shooting overlays: each entry {polygon, label?, kind?}; targets are ringed. */
  showShots(areas, targets = []) {
    this.under.replaceChildren();
    for (const a of areas) {
      if (!a.polygon || a.polygon.length < 3) continue;
      this.under.append(s("polygon", { class: `arc-area ${a.kind || ""}`, points: pts(a.polygon) }));
    }
    for (const id of targets) {
      const v = this.vehicle(id);
      if (!v) continue;
      const p = this.poses.get(id) || v;
      this.under.append(s("circle", { class: "target-ring", cx: p.x, cy: p.y, r: Math.max(v.length, v.width) / 2 + 10 }));
    }
  }

  /**
   * Spin (or lose-control pivot) by dragging: a ghost of the vehicle turns about its centre;
   * ``onAngle(deg)`` reports the anticlockwise angle from its heading, within [low, high].
   */
  startSpin(vehicleId, low, high, onAngle) {
    this.over.replaceChildren();
    const v = this.vehicle(vehicleId);
    if (!v) return;
    const c = this.poses.get(vehicleId) || v;
    const r = Math.max(v.length, v.width) / 2 + 22;
    const g = s("g", { class: "spin-tool" });
    const span = high - low;
    if (span < 359) {
      const a0 = (c.heading + low) * RAD;
      const a1 = (c.heading + high) * RAD;
      const large = span > 180 ? 1 : 0;
      g.append(s("path", {
        class: "spin-range",
        d: `M${c.x} ${c.y} L${c.x + r * Math.cos(a0)} ${c.y + r * Math.sin(a0)} A${r} ${r} 0 ${large} 1 ${c.x + r * Math.cos(a1)} ${c.y + r * Math.sin(a1)} Z`,
      }));
    } else {
      g.append(s("circle", { class: "spin-range", cx: c.x, cy: c.y, r }));
    }
    const ghost = s("g", { class: "spin-ghost" },
      s("rect", { x: -v.length / 2, y: -v.width / 2, width: v.length, height: v.width, rx: 4 }),
      s("path", { d: `M${v.length / 2 - 9} ${-v.width / 2 + 3} L${v.length / 2 + 7} 0 L${v.length / 2 - 9} ${v.width / 2 - 3} Z` }));
    const handle = s("circle", { class: "spin-handle", r: 8 });
    g.append(ghost, handle);
    this.over.append(g);
    this.svg.classList.add("spinning");
    const st = { vehicleId, low, high, angle: 0, dragging: false, ghost, handle, c, r, onAngle };
    this.spin = st;
    this.setSpinAngle(0);
    const move = (e) => {
      if (!st.dragging) return;
      const p = this.toWorld(e);
      const a = Math.atan2(p.y - c.y, p.x - c.x) / RAD;
      const d = Math.max(low, Math.min(high, normDelta(a - c.heading)));
      this.setSpinAngle(Math.round(d));
      onAngle(Math.round(d));
    };
    const down = (e) => {
      st.dragging = true;
      this.svg.setPointerCapture(e.pointerId);
      e.stopPropagation();
      move(e);
    };
    handle.addEventListener("pointerdown", down);
    ghost.addEventListener("pointerdown", down);
    this.svg.addEventListener("pointermove", move);
    const up = () => { st.dragging = false; };
    this.svg.addEventListener("pointerup", up);
    st.detach = () => {
      this.svg.removeEventListener("pointermove", move);
      this.svg.removeEventListener("pointerup", up);
    };
  }

  setSpinAngle(deg) {
    const st = this.spin;
    if (!st) return;
    st.angle = deg;
    const h = st.c.heading + deg;
    st.ghost.setAttribute("transform", `translate(${round(st.c.x)},${round(st.c.y)}) rotate(${round(h)})`);
    st.handle.setAttribute("cx", round(st.c.x + st.r * Math.cos(h * RAD)));
    st.handle.setAttribute("cy", round(st.c.y + st.r * Math.sin(h * RAD)));
  }

  stopSpin() {
    if (this.spin && this.spin.detach) this.spin.detach();
    this.over.replaceChildren();
    this.spin = null;
    this.svg.classList.remove("spinning");
  }

  /** Centre the view on a vehicle (keeps the zoom level, at least 2x). */
  focusVehicle(id) {
    const v = this.vehicle(id);
    if (!v) return;
    const p = this.poses.get(id) || v;
    const rot = this.isRotated();
    const cx = rot ? p.y : p.x;
    const cy = rot ? p.x : this.H - p.y;
    this.zoom = { k: Math.max(2, this.zoom.k), cx, cy };
    this._fit();
  }
}

function centroid(poly) {
  let x = 0;
  let y = 0;
  for (const [px, py] of poly) { x += px; y += py; }
  return [x / poly.length, y / poly.length];
}
