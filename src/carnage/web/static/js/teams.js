// The team builder: edit a team file in the browser, checked live by the server's team check
// (exactly the CLI's messages), saved, loaded, imported and exported.
import { api, ownerStore } from "./api.js";
import { debounce, fill, h, humanise, qs } from "./util.js";

const FACING_LABEL = { front: "Front", rear: "Rear", side: "Side", turret: "Turret" };
const WEAPON_KINDS = [
  ["basic", "Basic weapons"],
  ["advanced", "Advanced weapons"],
  ["crew_fired", "Crew fired"],
  ["dropped", "Dropped weapons"],
];
const UPGRADE_KINDS = [
  ["upgrade", "Upgrades"],
  ["sponsor", "Sponsor upgrades"],
  ["trailer", "Trailers"],
  ["cargo", "Trailer cargo"],
];

const cat = { vehicles: [], weapons: [], upgrades: [], perks: [], perk_classes: [], sponsors: [] };
const byId = {};
const state = {
  id: null, // saved team id
  team: null, // the team file object being edited
  report: null, // last TeamReport JSON
  dirty: false,
  seq: 0,
};

function index(kind) {
  byId[kind] = Object.fromEntries(cat[kind].map((r) => [r.id, r]));
}

function blankTeam() {
  return {
    name: "My Team",
    cans: 50,
    sponsor: null,
    vehicles: [{ name: "Car 1", type: "car", weapons: [{ id: "machine_gun", facing: "front" }], upgrades: [], perks: [] }],
  };
}

/** Bring any team file object into the builder's shape (items as {id, facing?}). */
function normalise(team) {
  const item = (x) => (typeof x === "string" ? { id: x } : { ...x });
  return {
    name: team.name ?? "",
    cans: team.cans ?? 50,
    sponsor: team.sponsor ?? null,
    vehicles: (team.vehicles || []).map((v) => ({
      name: v.name ?? "",
      type: v.type ?? "car",
      weapons: (v.weapons || []).map(item),
      upgrades: (v.upgrades || []).map(item),
      perks: [...(v.perks || [])],
    })),
    templates: team.templates ?? null, // a team's own movement templates (Legacy), kept as is
  };
}

/** The team file object sent to the server (facing only where set). */
function payload() {
  const t = state.team;
  const clean = (x) => {
    const o = { id: x.id };
    if (x.facing) o.facing = x.facing;
    if (x.mount) o.mount = x.mount;
    return o;
  };
  const out = {
    name: t.name,
    cans: t.cans,
    vehicles: t.vehicles.map((v) => ({
      name: v.name,
      type: v.type,
      weapons: v.weapons.map(clean),
      upgrades: v.upgrades.map(clean),
      perks: [...v.perks],
    })),
  };
  if (t.sponsor) out.sponsor = t.sponsor;
  if (t.templates) out.templates = t.templates;
  return out;
}

// ---------------------------------------------------------------------------------- options
function vehicleTypeOptions(selected) {
  const groups = [["Vehicles", (v) => !v.advanced], ["Advanced vehicles", (v) => v.advanced]];
  const known = cat.vehicles.some((v) => v.id === selected);
  return [
    known ? null : h("option", { value: selected, selected: true }, `${selected} (unknown)`),
    groups.map(([label, test]) =>
      h("optgroup", { label },
        cat.vehicles.filter(test).map((v) =>
          h("option", { value: v.id, selected: v.id === selected }, `${v.name} — ${v.cost} cans`)))),
  ];
}

function sponsorNote(rec) {
  return rec.sponsor ? ` (${humanise(rec.sponsor)} only)` : "";
}

function weaponOptions(selected) {
  const known = selected === "" || cat.weapons.some((w) => w.id === selected);
  return [
    known ? null : h("option", { value: selected, selected: true }, `${selected} (unknown)`),
    WEAPON_KINDS.map(([kind, label]) =>
      h("optgroup", { label },
        cat.weapons.filter((w) => w.kind === kind && !w.standard_issue).map((w) =>
          h("option", { value: w.id, selected: w.id === selected },
            `${w.name} — ${w.cost} cans, ${w.build_slots} slot${w.build_slots === 1 ? "" : "s"}${sponsorNote(w)}`)))),
  ];
}

function upgradeOptions(selected) {
  const known = selected === "" || cat.upgrades.some((u) => u.id === selected);
  return [
    known ? null : h("option", { value: selected, selected: true }, `${selected} (unknown)`),
    UPGRADE_KINDS.map(([kind, label]) =>
      h("optgroup", { label },
        cat.upgrades.filter((u) => u.kind === kind && !u.cost_multiplier).map((u) =>
          h("option", { value: u.id, selected: u.id === selected },
            `${u.name} — ${u.cost} cans, ${u.build_slots} slot${u.build_slots === 1 ? "" : "s"}${sponsorNote(u)}`)))),
  ];
}

function perkOptions(selected) {
  const sponsor = byId.sponsors[state.team.sponsor];
  const mine = new Set(sponsor ? sponsor.perk_classes : []);
  const classes = [...cat.perk_classes].sort((a, b) => (mine.has(b.id) - mine.has(a.id)));
  const known = selected === "" || cat.perks.some((p) => p.id === selected);
  return [
    known ? null : h("option", { value: selected, selected: true }, `${selected} (unknown)`),
    classes.map((pc) =>
      h("optgroup", { label: `${pc.name}${mine.has(pc.id) ? " (your sponsor)" : ""}` },
        cat.perks.filter((p) => p.perk_class === pc.id).map((p) =>
          h("option", { value: p.id, selected: p.id === selected }, `${p.name} — ${p.cost} cans`)))),
  ];
}

function facingSelect(allowed, value, onchange, what) {
  if (!allowed || allowed.length === 0) return h("span.facing.muted.small", "no facing");
  const sel = h("select.facing", { "aria-label": `${what} facing`, onchange: (e) => onchange(e.target.value) },
    value && !allowed.includes(value) ? h("option", { value, selected: true }, value) : null,
    value ? null : h("option", { value: "", selected: true }, "— facing —"),
    allowed.map((f) => h("option", { value: f, selected: f === value }, FACING_LABEL[f] || f)));
  return sel;
}

function articulated(v) {
  const type = byId.vehicles[v.type];
  if (type && type.has_trailer) return true;
  return v.upgrades.some((u) => byId.upgrades[u.id] && byId.upgrades[u.id].kind === "trailer");
}

// ---------------------------------------------------------------------------------- render
const refs = { cards: [] };

function changed(structural = false) {
  state.dirty = true;
  updateSaveState();
  if (structural) render();
  validate();
}

function render() {
  const t = state.team;
  document.getElementById("team-name").value = t.name;
  document.getElementById("team-cans").value = t.cans;
  fill(document.getElementById("team-sponsor"),
    h("option", { value: "" }, "No sponsor"),
    cat.sponsors.map((s) => h("option", { value: s.id, selected: s.id === t.sponsor }, s.name)));
  const sp = byId.sponsors[t.sponsor];
  document.getElementById("sponsor-info").textContent = sp
    ? `Perk classes: ${sp.perk_classes.map(humanise).join(", ")} · p.${sp.page}`
    : "No sponsor: sponsor rules and perks are not in use.";
  const box = document.getElementById("vehicles");
  refs.cards = t.vehicles.map((v, i) => vehicleCard(v, i));
  fill(box, refs.cards.map((r) => r.el));
  renderReport();
}

function itemRow(kind, v, i, item, j) {
  const list = v[kind];
  const rec = kind === "weapons" ? byId.weapons[item.id] : byId.upgrades[item.id];
  const idSel = h("select.item-id", {
    "aria-label": `${kind === "weapons" ? "weapon" : "upgrade"} ${j + 1}`,
    onchange: (e) => {
      const next = kind === "weapons" ? byId.weapons[e.target.value] : byId.upgrades[e.target.value];
      list[j] = { id: e.target.value };
      const allowed = next ? (kind === "weapons" || next.needs_facing ? next.allowed_facings : []) : [];
      if (allowed.length) list[j].facing = allowed.includes(item.facing) ? item.facing : allowed[0];
      if (item.mount) list[j].mount = item.mount;
      changed(true);
    },
  }, kind === "weapons" ? weaponOptions(item.id) : upgradeOptions(item.id));
  const allowed = rec ? (kind === "weapons" || rec.needs_facing ? rec.allowed_facings : []) : ["front", "rear", "side", "turret"];
  const facing = facingSelect(allowed, item.facing || "", (f) => {
    if (f) item.facing = f;
    else delete item.facing;
    changed();
  }, rec ? rec.name : item.id);
  const mount = kind === "weapons" && articulated(v)
    ? h("select.mount", {
      "aria-label": "mounted on",
      onchange: (e) => {
        if (e.target.value === "trailer") item.mount = "trailer";
        else delete item.mount;
        changed();
      },
    }, h("option", { value: "cab" }, "on the cab"),
    h("option", { value: "trailer", selected: item.mount === "trailer" }, "on the trailer"))
    : null;
  const stats = rec && kind === "weapons"
    ? h("span.small.muted.wstats", { title: `${rec.ranges.map(humanise).join("/")}, ${rec.attack_dice ? `${rec.attack_dice}D6` : "special dice"}${rec.ammo ? `, ammo ${rec.ammo}` : ""}` }, `${rec.ranges.map(humanise).join("/")} · ${rec.attack_dice ? `${rec.attack_dice}D6` : "special"}${rec.ammo ? ` · ammo ${rec.ammo}` : ""}`)
    : null;
  const remove = h("button.small.danger.remove", {
    title: "Remove", "aria-label": `remove ${rec ? rec.name : item.id}`,
    onclick: () => { list.splice(j, 1); changed(true); },
  }, "✕");
  const errs = h("ul.errors.item-errors");
  const row = h("div.item-row", { dataset: { kind, index: j, id: item.id } }, h("div.row", idSel, facing, mount, stats, h("span.grow"), remove), errs);
  return { row, errs, id: item.id };
}

function perkRow(v, i, id, j) {
  const sel = h("select.item-id", {
    "aria-label": `perk ${j + 1}`,
    onchange: (e) => { v.perks[j] = e.target.value; changed(true); },
  }, perkOptions(id));
  const remove = h("button.small.danger.remove", {
    title: "Remove", onclick: () => { v.perks.splice(j, 1); changed(true); },
  }, "✕");
  const errs = h("ul.errors.item-errors");
  const row = h("div.item-row", { dataset: { kind: "perks", index: j, id } }, h("div.row", sel, h("span.grow"), remove), errs);
  return { row, errs, id };
}

function adder(label, optionsFn, onpick) {
  const sel = h("select.adder", {
    "aria-label": label,
    onchange: (e) => {
      if (!e.target.value) return;
      onpick(e.target.value);
    },
  }, h("option", { value: "", selected: true }, `+ ${label}…`), optionsFn(""));
  return sel;
}

function vehicleCard(v, i) {
  const type = byId.vehicles[v.type];
  const nameIn = h("input.vname", {
    value: v.name, "aria-label": `vehicle ${i + 1} name`, maxlength: 60,
    oninput: (e) => { v.name = e.target.value; changed(); },
  });
  const typeSel = h("select.vtype", {
    "aria-label": `vehicle ${i + 1} type`,
    onchange: (e) => { v.type = e.target.value; changed(true); },
  }, vehicleTypeOptions(v.type));
  const remove = h("button.small.danger", {
    onclick: () => { state.team.vehicles.splice(i, 1); changed(true); },
  }, "Remove vehicle");
  const up = i > 0 ? h("button.small", {
    title: "Move up",
    onclick: () => {
      const vs = state.team.vehicles;
      [vs[i - 1], vs[i]] = [vs[i], vs[i - 1]];
      changed(true);
    },
  }, "↑") : null;
  const stats = h("div.vstats");
  const cost = h("div.vcost");
  const weapons = v.weapons.map((w, j) => itemRow("weapons", v, i, w, j));
  const upgrades = v.upgrades.map((u, j) => itemRow("upgrades", v, i, u, j));
  const perks = v.perks.map((p, j) => perkRow(v, i, p, j));
  const errs = h("ul.errors.vehicle-errors");
  const builtIn = type && type.built_in_upgrades && type.built_in_upgrades.length
    ? h("div.small.muted", "Built in: ", type.built_in_upgrades.map((u) => (byId.upgrades[u] ? byId.upgrades[u].name : humanise(u))).join(", "))
    : null;
  const specials = type && type.special_rules.length
    ? h("div.small.muted", "Special rules: ", type.special_rules.map(humanise).join(", "))
    : null;
  const el = h("section.panel.vehicle", { dataset: { index: i } },
    h("div.row.vhead", nameIn, typeSel, h("span.grow"), up, remove),
    h("div.row", stats, h("span.grow"), cost),
    specials, builtIn,
    h("h3", "Weapons"),
    weapons.map((r) => r.row),
    adder("add weapon", weaponOptions, (id) => {
      const rec = byId.weapons[id];
      const w = { id };
      if (rec && rec.allowed_facings.length) w.facing = rec.allowed_facings[0];
      v.weapons.push(w);
      changed(true);
    }),
    h("h3", "Upgrades"),
    upgrades.map((r) => r.row),
    adder("add upgrade", upgradeOptions, (id) => {
      const rec = byId.upgrades[id];
      const u = { id };
      if (rec && rec.needs_facing && rec.allowed_facings.length) u.facing = rec.allowed_facings[0];
      v.upgrades.push(u);
      changed(true);
    }),
    h("h3", "Perks"),
    perks.map((r) => r.row),
    adder("add perk", perkOptions, (id) => { v.perks.push(id); changed(true); }),
    errs);
  return { el, stats, cost, errs, items: [...weapons, ...upgrades, ...perks] };
}

function renderReport() {
  const r = state.report;
  const t = state.team;
  document.getElementById("budget-cans").textContent = t.cans;
  const total = document.getElementById("total-cans");
  const validity = document.getElementById("validity");
  const teamErrs = document.getElementById("team-errors");
  const notes = document.getElementById("team-notes");
  if (!r) return;
  if (r.loadErrors) {
    total.textContent = "?";
    validity.className = "badge bad";
    validity.textContent = "not a team file";
    fill(teamErrs, r.loadErrors.map((m) => h("li", m)));
    fill(notes);
    for (const c of refs.cards) { fill(c.errs); fill(c.stats); fill(c.cost); c.items.forEach((it) => fill(it.errs)); }
    return;
  }
  total.textContent = r.total_cans;
  total.parentElement.classList.toggle("over", r.total_cans > r.budget);
  validity.className = `badge ${r.valid ? "ok" : "bad"}`;
  validity.textContent = r.valid ? "legal team" : `${r.errors.length} problem${r.errors.length === 1 ? "" : "s"}`;
  const placed = new Set();
  // Errors next to the vehicle (by name, in order) and the item they name.
  refs.cards.forEach((c, i) => {
    const v = t.vehicles[i];
    const rep = r.vehicles[i];
    fill(c.errs);
    c.items.forEach((it) => fill(it.errs));
    if (rep) {
      fill(c.stats,
        stat("Weight", humanise(rep.weight || "?")), stat("Hull", rep.hull), stat("Handling", rep.handling),
        stat("Max gear", rep.max_gear), stat("Crew", rep.crew));
      fill(c.cost,
        h("span.cans", `${rep.cans} cans`), " · ",
        h("span.slots", { class: rep.slots_used > rep.slots ? "slots over" : "slots" }, `${rep.slots_used}/${rep.slots} slots`));
    }
    r.errors.forEach((e, k) => {
      if (placed.has(k) || e.vehicle === null || e.vehicle !== v.name) return;
      placed.add(k);
      const target = c.items.find((it) => it.id === e.item);
      (target ? target.errs : c.errs).append(h("li", e.message));
    });
    (r.relaxed || []).forEach((e) => {
      if (e.vehicle === v.name) c.errs.append(h("li.note", `Homebrew: ${e.message}`));
    });
  });
  fill(teamErrs, r.errors.filter((e, k) => !placed.has(k)).map((e) => h("li", e.message)));
  fill(notes, (r.relaxed || []).filter((e) => e.vehicle === null).map((e) => h("li", `Homebrew: ${e.message}`)));
}

function stat(label, value) {
  return h("span.stat", h("small", label), " ", h("b", value));
}

// ---------------------------------------------------------------------------------- server
const validateNow = async () => {
  const seq = ++state.seq;
  const body = { team: payload(), homebrew: document.getElementById("homebrew").checked };
  document.body.dataset.validating = "1";
  let report;
  try {
    report = await api.post("/api/teams/validate", body);
  } catch (e) {
    report = { loadErrors: e.message.split("\n").filter(Boolean) };
  }
  if (seq !== state.seq) return; // a newer check is on its way
  state.report = report;
  renderReport();
  delete document.body.dataset.validating;
};
const validate = debounce(validateNow, 250);

function updateSaveState() {
  const note = document.getElementById("save-state");
  note.textContent = state.id ? `${state.dirty ? "unsaved changes · " : "saved · "}team ${state.id}` : "not saved yet";
  const ok = Boolean(state.id);
  for (const id of ["export-yaml", "export-json", "export-rosz"]) {
    const a = document.getElementById(id);
    a.classList.toggle("disabled", !ok);
    a.href = !ok ? "#" : id === "export-rosz" ? `/api/teams/${state.id}/battlescribe`
      : `/api/teams/${state.id}/export?format=${id.endsWith("yaml") ? "yaml" : "json"}`;
    a.title = ok ? "Downloads the last saved version" : "Save the team first";
  }
  document.getElementById("print-team").disabled = !ok;
  document.getElementById("saved-note").textContent = ok && state.dirty
    ? "Export and print use the last saved version." : "";
}

function flash(text, kind = "info") {
  const el = h(`div.flash.${kind}`, { role: "status" }, text);
  document.body.append(el);
  setTimeout(() => el.remove(), 2500);
}

/** A new team named like one this browser already saved: say so once; a second Save keeps
 * both. */
async function sameNameWarning() {
  const box = document.getElementById("name-warning");
  const name = String(state.team.name || "").trim().toLowerCase();
  const replacing = state.id && ownerStore.token(state.id);
  if (replacing || !name || state.warnedName === name) return false;
  let teams = [];
  try { teams = await api.teams(); } catch { return false; }
  const twin = teams.find((t) => String(t.name).trim().toLowerCase() === name);
  if (!twin) return false;
  state.warnedName = name;
  box.textContent = `A saved team is already called "${twin.name}". Rename this one, or press Save again to keep both.`;
  box.classList.remove("hidden");
  return true;
}

async function save() {
  if (await sameNameWarning()) return;
  document.getElementById("name-warning").classList.add("hidden");
  try {
    const body = { team: payload() };
    // A team this browser does not own (opened by a share link) is saved as a new copy.
    const mine = state.id && ownerStore.token(state.id);
    const res = mine
      ? await api.put(`/api/teams/${state.id}`, body, ownerStore.headers(state.id))
      : await api.post("/api/teams", body);
    if (res.owner_token) ownerStore.save(res.id, res.owner_token);
    state.id = res.id ?? state.id;
    state.report = res.report ?? state.report;
    state.dirty = false;
    history.replaceState(null, "", `/teams?id=${encodeURIComponent(state.id)}`);
    updateSaveState();
    renderReport();
    flash(res.report && !res.report.valid ? "Saved (the team is not legal yet)" : "Saved");
    await loadSaved();
  } catch (e) {
    flash(e.message, "bad");
  }
}

async function loadTeam(id) {
  try {
    const res = await api.get(`/api/teams/${encodeURIComponent(id)}`);
    ownerStore.open(res.id);
    state.id = res.id;
    state.team = normalise(res.team);
    state.report = res.report;
    state.dirty = false;
    history.replaceState(null, "", `/teams?id=${encodeURIComponent(state.id)}`);
    render();
    updateSaveState();
    validate();
  } catch (e) {
    flash(e.message, "bad");
  }
}

async function deleteTeam(id, name, owned) {
  if (!window.confirm(owned ? `Delete the team "${name}"?` : `Remove "${name}" from your list?`)) return;
  try {
    if (owned) await api.del(`/api/teams/${encodeURIComponent(id)}`, ownerStore.headers(id));
    ownerStore.forget(id);
    if (state.id === id) {
      state.id = null;
      state.dirty = true;
      history.replaceState(null, "", "/teams");
      updateSaveState();
    }
    await loadSaved();
  } catch (e) {
    flash(e.message, "bad");
  }
}

async function loadSaved() {
  let teams = [];
  try {
    teams = await api.teams();
  } catch (e) {
    flash(e.message, "bad");
  }
  fill(document.getElementById("saved-teams"),
    teams.length === 0 ? h("li.muted.small", "No saved teams yet.") : null,
    teams.map((t) => h("li", { dataset: { id: t.id }, class: t.id === state.id ? "current" : "" },
      h("button.link.load", { onclick: () => loadTeam(t.id) }, t.name),
      h("span.small.muted", ` ${t.total_cans}/${t.cans} cans${t.sponsor ? ` · ${humanise(t.sponsor)}` : ""} `),
      h(`span.badge.${t.valid ? "ok" : "bad"}`, t.valid ? "legal" : "not legal"),
      h("button.small.link.del", { title: t.owned ? "Delete" : "Remove from the list",
        onclick: () => deleteTeam(t.id, t.name, t.owned) }, t.owned ? "delete" : "remove"))));
}

async function importTeam() {
  const text = document.getElementById("import-text").value;
  const format = document.getElementById("import-format").value;
  const errs = document.getElementById("import-errors");
  fill(errs);
  if (!text.trim()) {
    fill(errs, h("li", "Paste a team file (or choose one) first."));
    return;
  }
  try {
    const res = await api.post("/api/teams/import", { text, format });
    state.id = null;
    state.team = normalise(res.team);
    state.report = res.report;
    state.dirty = true;
    history.replaceState(null, "", "/teams");
    render();
    updateSaveState();
    flash("Imported: save it to keep it");
  } catch (e) {
    fill(errs, e.message.split("\n").map((m) => h("li", m)));
  }
}

async function importRoster(ev) {
  const f = ev.target.files[0];
  const report = document.getElementById("roster-report");
  fill(report);
  if (!f) return;
  try {
    const res = await fetch("/api/teams/import/battlescribe", {
      method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: await f.arrayBuffer(),
    });
    const body = await res.json().catch(() => ({ detail: `${res.status} ${res.statusText}` }));
    if (!res.ok) {
      fill(report, h("li", body.detail));
      return;
    }
    state.id = null;
    state.team = normalise(body.team);
    state.report = body.report;
    state.dirty = true;
    history.replaceState(null, "", "/teams");
    render();
    updateSaveState();
    fill(report,
      body.unmapped.map((u) => h("li.unmapped", `Not mapped: ${u}`)),
      body.notes.map((n) => h("li.note", `Assumed: ${n}`)));
    flash(body.unmapped.length ? "Imported, with entries left out (listed)" : "Imported: save it to keep it");
  } catch (e) {
    fill(report, h("li", e.message));
  } finally {
    ev.target.value = "";
  }
}

async function readFile(ev) {
  const f = ev.target.files[0];
  if (!f) return;
  document.getElementById("import-text").value = await f.text();
  document.getElementById("import-format").value = /\.json$/i.test(f.name) ? "json" : "yaml";
}

// ---------------------------------------------------------------------------------- main
async function main() {
  const kinds = Object.keys(cat);
  const lists = await Promise.all(kinds.map((k) => api.catalog(k)));
  kinds.forEach((k, i) => { cat[k] = lists[i]; index(k); });
  fill(document.getElementById("new-vehicle-type"), vehicleTypeOptions("car"));

  document.getElementById("team-name").addEventListener("input", (e) => { state.team.name = e.target.value; changed(); });
  document.getElementById("team-cans").addEventListener("input", (e) => {
    const n = Number(e.target.value);
    state.team.cans = Number.isInteger(n) && e.target.value !== "" ? n : e.target.value;
    changed();
  });
  document.getElementById("team-sponsor").addEventListener("change", (e) => {
    state.team.sponsor = e.target.value || null;
    changed(true);
  });
  document.getElementById("homebrew").addEventListener("change", () => validate.flush());
  document.getElementById("add-vehicle").addEventListener("click", () => {
    const type = document.getElementById("new-vehicle-type").value;
    const rec = byId.vehicles[type];
    const n = state.team.vehicles.length + 1;
    state.team.vehicles.push({ name: `${rec ? rec.name : "Vehicle"} ${n}`, type, weapons: [], upgrades: [], perks: [] });
    changed(true);
  });
  document.getElementById("save-team").addEventListener("click", save);
  document.getElementById("new-team").addEventListener("click", () => {
    state.id = null;
    state.team = blankTeam();
    state.dirty = true;
    history.replaceState(null, "", "/teams");
    render();
    updateSaveState();
    validate.flush();
  });
  document.getElementById("print-team").addEventListener("click", () => {
    if (state.id) window.open(`/teams/print?id=${encodeURIComponent(state.id)}`, "_blank");
  });
  document.getElementById("import-team").addEventListener("click", importTeam);
  document.getElementById("import-file").addEventListener("change", readFile);
  document.getElementById("import-roster").addEventListener("change", importRoster);
  document.getElementById("team-name").addEventListener("input", () => document.getElementById("name-warning").classList.add("hidden"));
  for (const id of ["export-yaml", "export-json", "export-rosz"]) {
    document.getElementById(id).addEventListener("click", (e) => {
      if (!state.id) { e.preventDefault(); flash("Save the team first", "bad"); }
    });
  }

  const id = qs("id");
  if (id) {
    await loadTeam(id);
  } else {
    state.team = blankTeam();
    state.dirty = true;
    render();
    updateSaveState();
    validate.flush();
  }
  await loadSaved();
  document.body.dataset.ready = "1";
}

main().catch((e) => flash(e.message, "bad"));
