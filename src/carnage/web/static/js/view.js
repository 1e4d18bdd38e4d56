// Rendering a GameView around the board: status line, players, dashboards, event log.
// Shared by the table and the replay page.
import { liveCard } from "./dashboard.js";
import { fill, h, humanise, seatColour } from "./util.js";

const COLOUR_NAMES = {
  "#c0392b": "Red", "#2471a3": "Blue", "#229954": "Green", "#d68910": "Yellow",
  "#d4ac0d": "Yellow", "#7d3c98": "Purple", "#17a589": "Teal", "#138d75": "Teal", "#566573": "Grey",
};
const SEATS = ["Red", "Blue", "Green", "Yellow", "Purple", "Teal", "Grey"];

export function playerOf(view, seat) {
  return view.players.find((p) => p.seat === seat) || { seat, controller: "human", votes: 0, colour: null };
}

export function colourOf(view, seat) {
  return seatColour(seat, playerOf(view, seat).colour);
}

/** The player's one name, as the server gives it (the seat colour: "Red", "Blue"...). */
export function playerName(view, seat) {
  if (seat === null || seat === undefined) return "nobody";
  if (playerOf(view, seat).name) return playerOf(view, seat).name;
  const c = String(playerOf(view, seat).colour || "").toLowerCase();
  return COLOUR_NAMES[c] || (c && !c.startsWith("#") ? humanise(c) : SEATS[seat % SEATS.length]);
}

export function controllerName(c) {
  return c === "human" ? "human" : `${c} bot`;
}

export function statusLine(view) {
  const bits = [
    h("span.stat-chip", h("small", "Round"), h("b", view.round || "–")),
    h("span.stat-chip", h("small", "Gear phase"), h("b", view.gear_phase || "–")),
    h("span.stat-chip", h("small", "Pole"), h("span.swatch", { style: { background: colourOf(view, view.pole) } }), h("b", playerName(view, view.pole))),
    // The scenario's progress, whatever the scenario (GameView.report); a scenario that keeps
    // a scoreboard shows it there instead (objectives.js).
    ...(view.scoreboard ? [] : view.report || []).map((r) => h("span.stat-chip.scenario-report", { dataset: { key: r.key } }, h("small", r.label), h("b", r.text))),
  ];
  return bits;
}

/** Who must decide now, as a short phrase for the header. */
export function turnLine(view) {
  if (view.status === "finished") {
    return [h("span.badge.ok", "Finished"), " ",
      view.winner === null || view.winner === undefined ? "a draw" : `${playerName(view, view.winner)} wins`];
  }
  const p = view.pending;
  if (!p) return "…";
  const who = playerName(view, p.seat);
  const seated = view.your_seat !== null && view.your_seat !== undefined;
  const mine = seated && p.seat === view.your_seat;
  // Dice rolled at the table are entered by any seat at it (kernel/table_dice.py).
  const dice = seated && p.kind === "table_dice";
  const thinking = thinkingOf(view);
  return [
    h("span.swatch", { style: { background: colourOf(view, p.seat) } }), " ",
    dice ? h("b.yours", "Roll the dice at the table")
      : mine ? h("b.yours", "Your decision")
      : thinking ? thinkingLine(thinking)
        : h("span", `Waiting for ${who} (${controllerName(playerOf(view, p.seat).controller)})`),
    h("span.muted", ` · ${humanise(p.kind)}`),
  ];
}

/** The bot the game waits for while the server computes its choice (GameView.thinking), or
 * null. */
export function thinkingOf(view) {
  const t = view.thinking;
  return t && t.version === view.version ? t : null;
}

/** "<team> is thinking…", or why the bot could not decide. */
export function thinkingLine(t) {
  return t.failed
    ? h("span.bot-thinking.failed", { role: "alert", dataset: { seat: t.seat } }, `${t.team} could not decide (${t.failed}); the game waits`)
    : h("span.bot-thinking", { dataset: { seat: t.seat } }, `${t.team} is thinking…`);
}

export function renderPlayers(el, view) {
  fill(el, view.players.map((p) => {
    const you = view.your_seat === p.seat;
    return h("div.player", { dataset: { seat: p.seat }, class: `player${you ? " you" : ""}` },
      h("span.swatch", { style: { background: colourOf(view, p.seat) } }),
      h("b", playerName(view, p.seat)),
      p.team ? h("span.team-name", ` ${p.team}`) : null,
      h("span.muted.small", ` ${controllerName(p.controller)}${you ? " · you" : ""}`),
      h("span.grow"),
      h("span.votes", { title: "Audience votes" }, `★ ${p.votes}`));
  }));
}

export function renderDashboards(el, view, { activeId = null, clickable = new Set(), onclick = null } = {}) {
  const bySeat = new Map();
  for (const v of view.vehicles) {
    if (!bySeat.has(v.player)) bySeat.set(v.player, []);
    bySeat.get(v.player).push(v);
  }
  fill(el, [...bySeat].sort((a, b) => a[0] - b[0]).map(([seat, vs]) =>
    h("div.team", { dataset: { seat } },
      vs.map((v) => liveCard(v, colourOf(view, seat), {
        active: v.id === activeId,
        pendingHere: clickable.has(v.id),
        hull: view.hull_track !== false,
        onclick: onclick ? () => onclick(v.id) : null,
      })))));
}

export function resultBanner(view) {
  if (view.status !== "finished") return null;
  const won = view.winner !== null && view.winner !== undefined;
  return h("div.result-card",
    h("button.small.link.close", { title: "Hide", onclick: (e) => e.target.closest(".result").classList.add("hidden") }, "✕"),
    h("h2", won ? `${playerName(view, view.winner)} wins!` : "A draw"),
    view.outcome_reason ? h("p", view.outcome_reason) : null,
    h("div.row",
      h("a.button.primary", { href: `/games/${view.id}/replay` }, "Replay step by step"),
      h("a.button", { href: "/" }, "Back to the lobby")));
}
