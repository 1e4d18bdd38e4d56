// Bar charts of exact odds as inline SVG (no libraries), and the odds of a game's pending
// decision for the table: `pendingOdds(gid, token)` fetches /api/odds/games/{gid}/pending and
// `pendingOddsPanel(answer)` draws one chart per option (each weapon at each target of an
// attack, each skid dice count, each collision reaction against the other's).

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A form's filled fields as a query string (a ticked box as ``true``; empty fields left out). */
export function formQuery(form) {
  const q = new URLSearchParams();
  for (const el of form.elements) {
    if (!el.name) continue;
    if (el.type === "checkbox") { if (el.checked) q.set(el.name, "true"); }
    else if (el.value !== "") q.set(el.name, el.value);
  }
  return q;
}

export function pct(p) {
  if (p > 0 && p < 0.001) return "<0.1%";
  return `${(100 * p).toFixed(p >= 0.995 || p === 0 ? 0 : 1)}%`;
}

/**
 * A bar chart of {count: probability}: one bar per count, its probability above it.
 * `opts.label` names the counts (x axis); `opts.atLeast` ({count: P(>= count)}) adds a
 * marker line per bar. Each bar is a <rect class="bar" data-k data-p>.
 */
export function barChart(dist, opts = {}) {
  const keys = Object.keys(dist).map(Number).sort((a, b) => a - b);
  const w = opts.width || 420, hgt = opts.height || 180;
  const pad = {l: 46, r: 8, t: 18, b: 30};
  const iw = w - pad.l - pad.r, ih = hgt - pad.t - pad.b;
  const max = Math.max(1e-9, ...keys.map((k) => dist[k]));
  const top = Math.min(1, Math.ceil(max * 10) / 10 || 0.1);
  const root = svg("svg", {class: "odds-chart", viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt,
                           role: "img", "aria-label": opts.title || "distribution"});
  if (opts.title) root.append(svg("title", {}, opts.title));
  for (const f of [0, 0.5, 1]) {
    const y = pad.t + ih * (1 - f);
    root.append(svg("line", {x1: pad.l, x2: w - pad.r, y1: y, y2: y, class: "grid"}));
    root.append(svg("text", {x: pad.l - 4, y: y + 4, "text-anchor": "end", class: "axis"},
                    pct(top * f)));
  }
  const bw = iw / Math.max(1, keys.length);
  keys.forEach((k, i) => {
    const p = dist[k];
    const bh = ih * Math.min(1, p / top);
    const x = pad.l + i * bw + bw * 0.1;
    const bar = svg("rect", {class: "bar", x, y: pad.t + ih - bh, width: bw * 0.8,
                             height: Math.max(0, bh), "data-k": k, "data-p": p});
    bar.append(svg("title", {}, `${opts.label || "count"} ${k}: ${pct(p)}` +
                   (opts.atLeast && opts.atLeast[k] !== undefined
                     ? ` (at least ${k}: ${pct(opts.atLeast[k])})` : "")));
    root.append(bar);
    if (keys.length <= 16) {
      root.append(svg("text", {x: x + bw * 0.4, y: pad.t + ih - bh - 3, "text-anchor": "middle",
                               class: "value"}, pct(p)));
    }
    root.append(svg("text", {x: x + bw * 0.4, y: hgt - pad.b + 14, "text-anchor": "middle",
                             class: "axis"}, String(k)));
  });
  root.append(svg("text", {x: pad.l + iw / 2, y: hgt - 4, "text-anchor": "middle",
                           class: "axis"}, opts.label || "count"));
  return root;
}

export async function pendingOdds(gid, token) {
  const r = await fetch(`/api/odds/games/${encodeURIComponent(gid)}/pending?token=` +
                        encodeURIComponent(token || ""));
  const body = await r.json();
  if (!r.ok) throw new Error(body.detail || `HTTP ${r.status}`);
  return body;
}

/** One small chart per option of a pending decision (null when it has none). */
export function pendingOddsPanel(answer) {
  if (!answer || !answer.options || !answer.options.length) return null;
  const box = document.createElement("div");
  box.className = "odds-pending";
  const figure = (option, caption, dist, label, atLeast) => {
    const fig = document.createElement("figure");
    fig.dataset.option = String(option);
    fig.dataset.order = String(box.children.length);
    const cap = document.createElement("figcaption");
    cap.textContent = caption;
    fig.append(cap, barChart(dist, {width: 260, height: 120, label, atLeast}));
    box.append(fig);
  };
  // Under the Kart variant's rules hits are Hazards: the answer says so with expected_hazards
  // (and the chance of a Wipeout) instead of expected_damage.
  const measure = (odds) => odds.expected_hazards !== undefined
    ? {what: "Hazards", mean: odds.expected_hazards,
       wipe: odds.p_wipeout !== undefined ? `, P(Wipeout) ${pct(odds.p_wipeout)}` : ""}
    : {what: "damage", mean: odds.expected_damage, wipe: ""};
  for (const o of answer.options) {
    if (answer.kind === "attack") {
      const m = measure(o.odds);
      figure(o.option, `${o.label}: ${o.dice}D6${o.cover ? " in cover" : ""} vs ` +
             `${o.evade_gear} evade dice; expected ${m.what} ${m.mean.toFixed(2)}${m.wipe}`,
             o.odds.distribution, m.what.toLowerCase(), o.odds.p_at_least);
    } else if (answer.kind === "skid_dice") {
      figure(o.option, `${o.label} skid dice: P(wipeout) ${pct(o.odds.p_wipeout)}` +
             ` (Push It: ${pct(o.odds.push_it.p_wipeout)})`, o.odds.hazards_after, "hazards");
    } else if (answer.kind === "collision_reaction") {
      for (const [theirs, both] of Object.entries(o.odds)) {
        const mine = measure(both.self), other = measure(both.other);
        const taken = mine.what === "damage" ? "you take" : "you gain";
        figure(o.option, `${o.option} (${o.other} ${theirs === "smash" ? "smashes" : "evades"}): ` +
               `${taken} ${mine.mean.toFixed(2)}${mine.what === "damage" ? "" : " Hazards"}, ` +
               `${o.other} ${other.mean.toFixed(2)} on average${mine.wipe}`,
               both.self.distribution, `${mine.what.toLowerCase()} to you`, both.self.p_at_least);
      }
    }
  }
  return box;
}

/** The charts of the target picked on the table (`picked`: its id, what follows ">" in an
 * attack option's value) first and marked, the others after them in their own order; none
 * marked when nothing is picked. */
export function markPicked(box, picked) {
  const panel = box && box.querySelector(".odds-pending");
  if (!panel) return;
  const mine = (fig) => Boolean(picked) && String(fig.dataset.option || "").split(">")[1] === picked;
  const figs = [...panel.querySelectorAll(":scope > figure")];
  for (const fig of figs) fig.classList.toggle("picked", mine(fig));
  figs.sort((a, b) => Number(mine(b)) - Number(mine(a)) || Number(a.dataset.order) - Number(b.dataset.order));
  panel.append(...figs);
}
