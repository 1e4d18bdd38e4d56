// The lobby's Devil's Run section: pick a mission and who drives each gang, start, join.
import { api } from "./api.js";
import { fill, h } from "./util.js";

const missions = [];

function mission() {
  const id = document.getElementById("dr-mission").value;
  return missions.find((m) => m.id === id) || missions[0];
}

function showMission() {
  const m = mission();
  document.getElementById("dr-mission-info").textContent = m ? `${m.description} (rulebook lines ${m.lines})` : "";
}

function errors(lines) {
  fill(document.getElementById("dr-errors"), lines.map((l) => h("li", l)));
}

async function create(ev) {
  ev.preventDefault();
  errors([]);
  const seedText = document.getElementById("dr-seed").value.trim();
  if (seedText !== "" && !/^-?\d+$/.test(seedText)) {
    errors(["The seed must be a whole number (or empty for a random one)."]);
    return;
  }
  const seats = [0, 1].map((i) => ({ controller: document.getElementById(`dr-seat-${i}`).value }));
  const humans = seats.filter((x) => x.controller === "human").length;
  const tab = humans > 0 ? window.open("", "_blank") : null;
  const button = document.getElementById("dr-create");
  button.disabled = true;
  try {
    const hotSeat = document.getElementById("dr-hotseat").checked && humans > 1;
    const game = await api.post("/api/devils-run/games", {
      mission: mission().id, seats, seed: seedText === "" ? null : Number(seedText),
      hot_seat: hotSeat,
    });
    const tokens = game.seats.filter((st) => st.token).map((st) => encodeURIComponent(st.token));
    const hotUrl = hotSeat ? `/devils-run/${encodeURIComponent(game.id)}?token=${tokens.join(",")}` : null;
    const names = ["The Law", "The Haul's Angels"];
    const box = document.getElementById("dr-created");
    box.classList.remove("hidden");
    fill(box, h("h3", "Game ", h("code", game.id), " is on."),
      game.seats.map((st) => h("div.row.seat-link", h("b", names[st.seat]),
        st.url ? h("a.button.small.primary", { href: st.url, target: "_blank" }, "Open this seat's table")
          : h("span.muted", `${st.controller} bot`))),
      hotUrl ? h("div.row.seat-link", h("b", "Hot-seat"),
        h("a.button.small.primary", { href: hotUrl, target: "_blank" }, "Open the table for both seats")) : null,
      h("p.small.muted", "Anyone may ", h("a", { href: `/devils-run/${game.id}`, target: "_blank" }, "watch"),
        " without a seat link."));
    const first = hotUrl || (game.seats.find((st) => st.url) || {}).url;
    if (tab && first) tab.location.href = first;
    else if (tab) tab.close();
    await refresh();
  } catch (e) {
    if (tab) tab.close();
    errors([e.message]);
  } finally {
    button.disabled = false;
  }
}

async function refresh() {
  let games = [];
  try {
    games = await api.get("/api/devils-run/games");
  } catch {
    return;
  }
  fill(document.querySelector("#dr-games tbody"), games.slice(0, 20).map((g) => h("tr", { dataset: { game: g.id } },
    h("td", h("code", g.id.slice(0, 8))),
    h("td", (missions.find((m) => m.id === g.mission) || { name: g.mission }).name),
    h("td.small", g.seats.map((x) => x.controller).join(" vs ")),
    h("td", String(g.turn)),
    h("td", g.status === "finished" ? h("span.badge.ok", "finished") : h("span.badge.live", "in progress")),
    h("td", h("a.button.small", { href: `/devils-run/${g.id}` }, g.status === "finished" ? "View" : "Watch")))));
}

async function main() {
  try {
    missions.push(...await api.get("/api/devils-run/missions"));
  } catch (e) {
    errors([e.message]);
    return;
  }
  fill(document.getElementById("dr-mission"), missions.map((m) => h("option", { value: m.id }, m.name)));
  showMission();
  document.getElementById("dr-mission").addEventListener("change", showMission);
  document.getElementById("dr-new-game").addEventListener("submit", create);
  await refresh();
  document.getElementById("dr-new-game").dataset.ready = "1";
}

main();
