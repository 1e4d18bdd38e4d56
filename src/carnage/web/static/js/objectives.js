// What a scenario is and how the game stands, in the scenario's own terms, for any ruleset:
// its brief (how it is won, its special rules with their pages, what the ruleset changes) and
// its scoreboard (one row per seat, named by its team). Both come from the server's data:
// GameView.brief / GameView.scoreboard, RulesetScenario.brief (GET /api/rulesets).
import { h } from "./util.js";

function cited(rule) {
  return h("li", { dataset: { rule: rule.name } },
    h("b", `${rule.name}. `), rule.text, " ",
    h("span.cite", `(${rule.cite.text})`));
}

/** The scenario's brief as elements: heading with its pages, summary, how to win, its special
 * rules, and what differs in its ruleset (Kart, a Legacy chapter). */
export function briefNodes(brief, { heading = "h3" } = {}) {
  if (!brief) return [];
  const out = [
    h(`${heading}.brief-title`, brief.name, " ", h("span.cite", `(${brief.cite.text})`)),
    brief.summary ? h("p.brief-summary", brief.summary) : null,
    h("p.brief-goal", h("b", "How to win: "), brief.goal),
  ];
  if ((brief.rules || []).length) {
    out.push(h("p.brief-head", h("b", "Special rules")), h("ul.brief-rules", brief.rules.map(cited)));
  }
  if (brief.variant && (brief.differs || []).length) {
    out.push(h("p.brief-head.brief-variant", h("b", `${brief.variant}: what differs`)),
      h("ul.brief-differs", brief.differs.map(cited)));
  }
  return out.filter(Boolean);
}

/** The scoreboard as one element: its title and target, then each seat (best first) with its
 * colour, its team's name, its score and the details (each vehicle's own progress).
 * ``colourOf(seat)`` gives the seat's colour; ``report`` (GameView.report) goes folded below. */
export function scoreboardNode(board, colourOf = () => "#888", report = []) {
  if (!board) return null;
  const more = (report || []).length
    ? h("details.scoreboard-more", h("summary.small.muted", "More of the scenario's progress"),
      h("ul.small", report.map((r) => h("li.scenario-report", { dataset: { key: r.key } },
        h("span.muted", `${r.label}: `), r.text))))
    : null;
  return h("div.scoreboard-card",
    h("div.scoreboard-head", h("b.scoreboard-title", board.title),
      board.target ? h("span.muted.small.scoreboard-target", ` · to win: ${board.target}`) : null),
    h("ol.scoreboard-rows", (board.rows || []).map((r) =>
      h("li.scoreboard-row", {
        dataset: { seat: r.seat }, class: `scoreboard-row${r.leading ? " leading" : ""}${r.out ? " out" : ""}`,
        title: (r.details || []).join("\n"),
      },
      h("span.swatch", { style: { background: colourOf(r.seat) } }),
      h("span.scoreboard-name", r.name),
      h("span.scoreboard-score", r.score),
      (r.details || []).length ? h("small.scoreboard-details", r.details.join(" · ")) : null))),
    more);
}
