"""What the web table shows of a Devil's Run game (the ruleset's ``TableOffer``): its grid
board module, the view a seat reads (the road, the vehicles, the pending question and its
options in words with their exact odds, the dice), the sentences of its log, its bots and its
SVG drawings. The table (web/) reads these through the ruleset; it never imports this
package."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun import text
from carnage.games.devilsrun.brief import mission_brief, scoreboard, seat_names
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.pending import PENDING, option_odds
from carnage.games.devilsrun.render import render_board, stat_cards
from carnage.games.devilsrun.view import explain, game_view, rule_label
from carnage.kernel.events import Event
from carnage.kernel.ruleset import BoardAssets, MovedUrl, TableOffer, WebFiles


def table_view(game: DevilsRunGame, seats: Sequence[int]) -> dict[str, Any]:
    """``view.game_view`` in words for ``seats``: the question and its options in plain
    English (with the exact odds of an option that rolls dice), vehicle names, the dice."""
    v = game_view(game)
    d = game.pending()
    if d is not None:
        v["pending"]["text"] = text.question(game, d, prompt=d.prompt)
        v["pending"]["why"] = explain(d.source)
        odds = option_odds(game, d)
        for o, raw in zip(v["pending"]["options"], d.options, strict=True):
            o["text"] = text.option_label(game, d, raw.value)
            if str(raw.value) in odds:
                o["odds"] = odds[str(raw.value)]  # exact odds of what it rolls
    for veh in v["vehicles"]:
        veh["name"] = text.vehicle_name(game, veh["id"])
    for w in v["dice"]:
        w["text"] = f"{w['dice']} for {w['why']}: {', '.join(map(str, w['results']))}"
    v["board"]["columns"] = B.WIDTH
    v["gangs"] = [text.gang_name(game, p) for p in range(len(game.state.gangs))]
    v["brief"] = mission_brief(game.state.mission).to_json()  # the mission in our words
    v["scoreboard"] = scoreboard(game).to_json(seat_names(game), winner=_winner(game))
    return v


def _winner(game: DevilsRunGame) -> int | None:
    out = game.outcome()
    return None if out is None else out.winner


def event_text(game: DevilsRunGame, e: Event) -> str:
    return text.event_text(game, e)


def board_svg(game: DevilsRunGame) -> str:
    act = game.state.act
    return render_board(game, arcs_for=act.vid if act else None)


WEB = WebFiles("devilsrun", Path(__file__).resolve().parent / "web")
"""Devil's Run's browser files (games/devilsrun/web): its board."""

TABLE = TableOffer(
    board_view="devilsrun", event_text=event_text, view=table_view, rule_text=explain,
    rule_name=rule_label,
    quiet=text.QUIET, seats=(2, 2), own_teams=True,
    seat_names=("The Law", "The Haul's Angels"), board_svg=board_svg, cards_svg=stat_cards,
    board=BoardAssets(WEB, markup="table.html", module="table.js", styles=("table.css",)),
    pending_odds=PENDING, brief=mission_brief, moved=(
        MovedUrl("/api/devils-run/missions", "/api/scenarios?ruleset=devils-run"),
        MovedUrl("/api/devils-run/cards.svg", "/api/rulesets/devils-run/cards.svg"),
        MovedUrl("/api/devils-run/games", "/api/games"),
        MovedUrl("/api/devils-run/games/{gid}", "/api/games/{gid}"),
        MovedUrl("/api/devils-run/games/{gid}/decisions", "/api/games/{gid}/decisions",
                 methods=("POST",)),
        MovedUrl("/api/devils-run/games/{gid}/{what}", "/api/games/{gid}/{what}"),
        MovedUrl("/devils-run/{gid}", "/games/{gid}"),
    ),
)
"""The Devil's Run table: the grid board, two seats (the Law, the Haul's Angels)."""
