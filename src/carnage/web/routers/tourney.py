"""A small tourney over HTTP (``POST /api/tourney``: the summary ``carnage tourney --json``
prints) and the tourney page (``/tourney``) that charts it.

Bounded so that one request cannot hold the server: at most ``MAX_GAMES`` games and
``MAX_ROUNDS`` rounds a game, played in the request's own thread for at most
``TIME_LIMIT`` seconds (games still unplayed then are left out and the answer says
``stopped_early``), and one tourney at a time per server (another request meanwhile: 429).
"""

from __future__ import annotations

import threading
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BeforeValidator, Field, StrictInt

from carnage.analysis.tourney import Tourney, TourneyError, run_tourney
from carnage.team import TeamFileError, TeamSpec, parse_team
from carnage.web.deps import StoreDep
from carnage.web.routers.pages import MISSING, page
from carnage.web.schemas import Message, Seed, _In, whole_number
from carnage.web.sessions import ApiError

router = APIRouter(tags=["tourney"])
ERRORS: dict[int | str, dict[str, Any]] = {422: {"model": Message}, 429: {"model": Message}}

MAX_GAMES = 40
MAX_ROUNDS = 12
TIME_LIMIT = 20.0
_running = threading.Lock()


class TourneySide(_In):
    team_id: str | None = Field(default=None, max_length=64,
                                description="A saved team's id.")
    team: dict[str, Any] | None = Field(
        default=None, description="A team file as a JSON object (instead of a saved team).")


class TourneyRequest(_In):
    a: TourneySide = Field(description="Team A; neither id nor team: the scenario's own team.")
    b: TourneySide = Field(description="Team B; neither id nor team: the scenario's own team.")
    scenario: str = Field(default="street-race", max_length=64)
    games: Annotated[StrictInt, Field(ge=1, le=MAX_GAMES), BeforeValidator(whole_number)] = (
        Field(default=10, description="Games to play (seats alternate game by game)."))
    seed: Seed = Field(default=0, description="Master seed.")
    bot_a: Literal["heuristic", "random"] = "heuristic"
    bot_b: Literal["heuristic", "random"] = "heuristic"
    max_rounds: Annotated[StrictInt, Field(ge=1, le=MAX_ROUNDS),
                          BeforeValidator(whole_number)] = Field(
        default=MAX_ROUNDS, description="A game still running after this is a draw.")


@router.get("/tourney", response_class=FileResponse, responses=MISSING,
            summary="The tourney page: team A against team B, charted")
def tourney_page() -> FileResponse:
    return page("tourney.html")


def _spec(side: TourneySide, label: str, scenario: str, store: StoreDep) -> tuple[TeamSpec, str]:
    if side.team_id is not None and side.team is not None:
        raise ApiError(422, f"team {label}: give a saved team's id or a team, not both")
    try:
        if side.team is not None:
            return parse_team(side.team, f"team {label}"), "the team sent"
        if side.team_id is not None:
            stored = store.team(side.team_id)
            if stored is None:
                raise ApiError(422, f"team {label}: no saved team with id {side.team_id!r}")
            return parse_team(stored.data, f"team {label}"), f"saved team {side.team_id}"
    except TeamFileError as e:
        raise ApiError(422, e.problems[0]) from None
    from carnage.rulesets import get_ruleset

    try:
        # the web's tourney plays the registry's default ruleset (the tourney's own default)
        own = get_ruleset().scenario_class(scenario)().default_teams(2)
    except ValueError as e:
        raise ApiError(422, str(e)) from None
    if len(own) < 2:
        raise ApiError(422, f"team {label}: the scenario has no team of its own; choose a "
                            "saved team")
    return own[0 if label == "A" else 1], "the scenario's own team"


@router.post("/api/tourney", responses=ERRORS,
             summary="Play a small tourney of team A against team B")
def run(body: TourneyRequest, store: StoreDep) -> dict[str, Any]:
    a, a_source = _spec(body.a, "A", body.scenario, store)
    b, b_source = _spec(body.b, "B", body.scenario, store)
    t = Tourney(a=a, b=b, games=body.games, seed=body.seed, scenario=body.scenario,
                bots=(body.bot_a, body.bot_b), max_rounds=body.max_rounds,
                a_source=a_source, b_source=b_source)
    if not _running.acquire(blocking=False):
        raise ApiError(429, "another tourney is being played on this server; try again when "
                            "it is done")
    try:
        summary, ran = run_tourney(t, deadline=time.monotonic() + TIME_LIMIT)
    except TourneyError as e:
        raise ApiError(422, str(e)) from None
    finally:
        _running.release()
    return {**summary, "asked": body.games, "stopped_early": summary["games"] < body.games,
            "time_limit": TIME_LIMIT, "run": ran.to_json(summary["games"])}
