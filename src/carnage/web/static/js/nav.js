// The pages' navigation: after the hand-written links (lobby, team builder, ...), a link to
// each page a ruleset of the registry offers of its own (GET /api/rulesets: `pages`), so no
// page names a game. The link to the page shown is marked as here.
import { api } from "./api.js";

export async function rulesetPages() {
  const nav = document.querySelector(".topbar nav");
  if (!nav) return;
  let rulesets = [];
  try {
    rulesets = await api.get("/api/rulesets");
  } catch {
    return; // the hand-written links still work
  }
  for (const r of rulesets) {
    for (const p of r.pages || []) {
      if (nav.querySelector(`a[href="${CSS.escape(p.url)}"]`)) continue;
      const a = document.createElement("a");
      a.href = p.url;
      a.textContent = p.title;
      a.dataset.ruleset = r.name;
      if (window.location.pathname === p.url) a.className = "here";
      nav.append(a);
    }
  }
}

rulesetPages();
