// The Legacy generator page: asks /api/legacy/vehicle and shows the vehicle (ours, not the
// official app). No build step: plain DOM.
const form = document.getElementById("legacy-form");
const error = document.getElementById("legacy-error");
const panel = document.getElementById("legacy-vehicle");

function text(el, value) { el.textContent = value; return el; }

function row(cells) {
  const tr = document.createElement("tr");
  for (const c of cells) tr.appendChild(text(document.createElement("td"), String(c)));
  return tr;
}

// The check report names an item by its catalogue id (no display name): shown in words.
function itemName(x) { return x.name || String(x.id).replaceAll("_", " "); }

function show(doc) {
  const r = doc.report;
  const lg = doc.vehicle.legacy;
  text(document.getElementById("lv-title"), `${r.name} (${r.type.replace("_", " ")})`);
  text(document.getElementById("lv-stats"),
    `Hull ${r.hull} · Handling ${r.handling} · Max Gear ${r.max_gear} · Crew ${r.crew} · ` +
    `${r.weight} · Vehicle Rating ${lg.rating}`);
  const body = document.querySelector("#lv-items tbody");
  body.replaceChildren(
    ...r.weapons.map((w) => row([itemName(w), w.facing || "-", w.cans])),
    ...r.upgrades.map((u) => row([itemName(u), u.facing || "-", u.cans])),
    ...r.perks.map((p) => row([`${itemName(p)} (${p.class ?? p.perk_class})`, "-", p.cans])));
  const gains = document.getElementById("lv-gains");
  gains.replaceChildren(...doc.gains.map((g) => text(document.createElement("li"),
    `${g.name} (d100 ${g.roll}): ${g.changes.join("; ")} [+${g.rating}]`)));
  text(document.getElementById("lv-json"), JSON.stringify(doc.vehicle, null, 2));
  panel.hidden = false;
}

async function generate() {
  const data = new FormData(form);
  const q = new URLSearchParams({ type: data.get("type"), name: data.get("name"),
    mutations: data.get("mutations") || "0" });
  const res = await fetch(`/api/legacy/vehicle?${q}`);
  const doc = await res.json();
  if (!res.ok) {
    text(error, doc.detail || "something went wrong").hidden = false;
    panel.hidden = true;
    return;
  }
  error.hidden = true;
  show(doc);
}

form.addEventListener("submit", (e) => { e.preventDefault(); generate(); });
document.getElementById("new-name").addEventListener("click", async () => {
  const res = await fetch("/api/legacy/name");
  form.elements.name.value = (await res.json()).name;
});
generate().finally(() => { document.body.dataset.ready = "1"; });
