// Printable dashboards: one 88 x 63 mm card per vehicle of a saved team.
import { api } from "./api.js";
import { printCard } from "./dashboard.js";
import { fill, h, qs } from "./util.js";

async function main() {
  document.getElementById("print").addEventListener("click", () => window.print());
  const id = qs("id");
  const errors = document.getElementById("print-errors");
  if (!id) {
    fill(errors, h("li", "No team given: open this page from the team builder (print dashboards)."));
    return;
  }
  document.getElementById("back").href = `/teams?id=${encodeURIComponent(id)}`;
  try {
    const [res, vehicles, weapons, upgrades, perks] = await Promise.all([
      api.get(`/api/teams/${encodeURIComponent(id)}`),
      api.catalog("vehicles"), api.catalog("weapons"), api.catalog("upgrades"), api.catalog("perks"),
    ]);
    const by = (list) => Object.fromEntries(list.map((r) => [r.id, r]));
    const cat = { vehicles: by(vehicles), weapons: by(weapons), upgrades: by(upgrades), perks: by(perks) };
    const report = res.report;
    document.title = `Carnage — ${report.name} dashboards`;
    fill(document.getElementById("team-title"), `${report.name} `,
      h("small.muted", `${report.total_cans}/${report.budget} cans${report.valid ? "" : " · not a legal team"}`));
    if (!report.valid) fill(errors, report.errors.map((e) => h("li", e.message)));
    fill(document.getElementById("cards"),
      report.vehicles.map((v) => printCard(v, cat, report.name, "#c0392b")));
    // A team with its own movement templates (Gaslands: Legacy) prints them as they now are.
    if (res.team && res.team.templates) {
      document.getElementById("cards").append(h("section.team-templates",
        h("h2", "Movement templates"),
        h("img", { src: `/api/teams/${encodeURIComponent(id)}/templates.svg`,
          alt: `${report.name}'s movement templates` })));
    }
  } catch (e) {
    fill(errors, h("li", e.message));
  }
  document.body.dataset.ready = "1";
}

main();
