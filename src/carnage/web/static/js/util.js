// Small DOM helpers shared by every Carnage page (no framework, no build step).

/**
 * Create an element: h("div.card#id", {title: "x", onclick: fn}, child, "text", [more]).
 * Attributes starting with "on" become listeners; "class" / "dataset" / "style" objects work.
 */
export function h(tag, attrs, ...children) {
  const [, name, rest] = /^([a-z0-9-]+)(.*)$/i.exec(tag) || [null, "div", ""];
  const el = document.createElement(name);
  for (const m of rest.matchAll(/([.#])([\w-]+)/g)) {
    if (m[1] === ".") el.classList.add(m[2]);
    else el.id = m[2];
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") {
      for (const [prop, val] of Object.entries(v)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, val);
        else el.style[prop] = val;
      }
    }
    else if (k === "class") el.className = v;
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with attributes (numbers are rounded to 0.01). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, typeof v === "number" ? String(round(v)) : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function round(x, digits = 2) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Replace all children of ``el``. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export function debounce(fn, ms) {
  let t = null;
  const wrapped = (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
  wrapped.flush = (...args) => {
    clearTimeout(t);
    fn(...args);
  };
  return wrapped;
}

/** A wait of about `ms` (from half to one and a half times it): the pages of a server process
 * that stopped connect again spread out, not all in the same instant. */
export function spread(ms) {
  return ms * (0.5 + Math.random());
}

export function qs(name) {
  return new URLSearchParams(window.location.search).get(name);
}

/** "heavy_machine_gun" -> "Heavy machine gun". */
export function humanise(id) {
  if (id === null || id === undefined) return "";
  const t = String(id).replace(/[_-]+/g, " ").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** Copy text to the clipboard; falls back to a hidden textarea when the API is unavailable. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h("textarea", { style: { position: "fixed", opacity: "0" } }, text);
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand("copy");
    ta.remove();
    return ok;
  }
}

/** Team colours, by the colour name the engine gives a player (or by seat). */
export const COLOURS = {
  red: "#c0392b",
  blue: "#2471a3",
  green: "#229954",
  yellow: "#d4ac0d",
  purple: "#7d3c98",
  teal: "#138d75",
  orange: "#ca6f1e",
  grey: "#707b7c",
};
const SEAT_ORDER = ["red", "blue", "green", "yellow", "purple", "teal"];

/** CSS colour for a player: their named colour if we know it, else by seat. */
export function seatColour(seat, name) {
  if (name) {
    const key = String(name).toLowerCase();
    if (COLOURS[key]) return COLOURS[key];
    if (/^#[0-9a-f]{3,8}$/i.test(key)) return key;
  }
  return COLOURS[SEAT_ORDER[(seat ?? 0) % SEAT_ORDER.length]];
}

export function seatName(seat, name) {
  if (name) return humanise(name);
  return humanise(SEAT_ORDER[(seat ?? 0) % SEAT_ORDER.length]);
}
