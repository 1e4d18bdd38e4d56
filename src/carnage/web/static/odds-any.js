// The odds page's "every query" panel: its forms are built from GET /api/odds (each query a
// game offers, with its parameters' types, bounds, words and defaults), so a query a ruleset
// declares appears here with no page change. Each answer's distributions ({count: P}) are
// drawn as bar charts, its other numbers listed.
import {barChart, formQuery, pct} from "/static/odds-chart.js";

const panel = document.getElementById("any");
const pick = panel.querySelector("select[name=query]");
const form = panel.querySelector("form.params");
const about = panel.querySelector(".about");
let queries = [];
let latest = 0;

function words(name) {
  return name.replaceAll("_", " ");
}

function field(p) {
  const label = document.createElement("label");
  label.title = p.help;
  let input;
  if (p.type === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = Boolean(p.default);
    label.append(input, ` ${words(p.name)}`);
  } else if (p.type === "choice") {
    input = document.createElement("select");
    const choices = p.required || p.default !== null ? p.choices : ["", ...p.choices];
    for (const c of choices) {
      const o = document.createElement("option");
      o.value = c;
      o.textContent = c === "" ? "(none)" : words(c);
      o.selected = c === (p.default ?? "");
      input.append(o);
    }
    label.append(`${words(p.name)} `, input);
  } else {
    input = document.createElement("input");
    input.type = "number";
    if (p.min !== null) input.min = String(p.min);
    if (p.max !== null) input.max = String(p.max);
    const start = p.default ?? (p.required ? Math.max(p.min ?? 0, Math.min(p.max ?? 0, 1)) : "");
    input.value = String(start);
    label.append(`${words(p.name)} `, input);
  }
  input.name = p.name;
  return label;
}

function isDist(v) {
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => /^-?\d+(\.\d+)?$/.test(k) &&
                                               typeof v[k] === "number");
}

// Every distribution in the answer (``exact`` fractions left out) as [caption, dist, atLeast].
function charts(answer, prefix = "") {
  const out = [];
  for (const [k, v] of Object.entries(answer)) {
    if (k === "exact" || k === "p_at_least") continue;
    if (isDist(v)) out.push([words(prefix + k), v, isDist(answer.p_at_least) &&
                             k === "distribution" ? answer.p_at_least : undefined]);
    else if (v && typeof v === "object" && !Array.isArray(v)) {
      out.push(...charts(v, `${prefix}${k} `));
    }
  }
  return out;
}

function numbers(answer) {
  const out = [];
  for (const [k, v] of Object.entries(answer)) {
    if (typeof v === "number") {
      out.push(`${words(k)} <b>${k.startsWith("p_") ? pct(v) : Number(v.toFixed(3))}</b>`);
    } else if (typeof v === "boolean" || typeof v === "string") {
      out.push(`${words(k)} ${v}`);
    }
  }
  return out.join("; ");
}

async function update() {
  const mine = ++latest;
  panel.dataset.asked = String(mine);
  const q = queries[pick.selectedIndex];
  const err = panel.querySelector(".error");
  try {
    const r = await fetch(`${q.url}?${formQuery(form)}`);
    const body = await r.json();
    if (!r.ok) throw new Error(body.detail || `HTTP ${r.status}`);
    if (mine !== latest) return;
    const box = panel.querySelector(".charts");
    box.replaceChildren();
    for (const [caption, dist, atLeast] of charts(body)) {
      const fig = document.createElement("figure");
      fig.dataset.chart = caption;
      const cap = document.createElement("figcaption");
      cap.textContent = caption;
      fig.append(cap, barChart(dist, {atLeast, title: caption}));
      box.append(fig);
    }
    panel.querySelector(".summary").innerHTML = numbers(body);
    err.textContent = "";
  } catch (e) {
    if (mine !== latest) return;
    err.textContent = e.message;
  }
  panel.dataset.shown = String(mine);
}

function choose() {
  const q = queries[pick.selectedIndex];
  about.textContent = `${q.description || q.summary} Offered by ${q.games.join(", ")}.`;
  form.replaceChildren(...q.params.map(field));
  return update();
}

async function main() {
  const r = await fetch("/api/odds");
  queries = (await r.json()).queries;
  for (const q of queries) {
    const o = document.createElement("option");
    o.value = q.path;
    o.textContent = `${q.path}: ${q.summary}`;
    pick.append(o);
  }
  pick.addEventListener("change", choose);
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", (ev) => ev.preventDefault());
  await choose();
  panel.dataset.ready = "1";
}

main();
