"""What Devil's Run offers the command line through its ``Ruleset`` (``kernel/session.py``):
its missions as a list, games made from a ``GameRequest``, their logs and ``carnage replay``.

A log is JSON lines like every ruleset's: a header (``carnage_log``, ``scenario``, ``seed``,
``setup``: ruleset, scenario, gangs and seed, and ``choices``), then the game's events. Replay
rebuilds the game from the setup, re-applies the choices and compares every event.
"""

from __future__ import annotations

import json
from typing import Any

from carnage import guard
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.games.devilsrun.text import gang_name
from carnage.kernel.contract import PlayableGame
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.ruleset import ScenarioInfo, players_text
from carnage.kernel.session import (
    GameRequest,
    ReplayReport,
    ReportRow,
    SetupRefused,
    compare_events,
)

LOG_VERSION = 1
"""The version of the log's header (the same as every ruleset's)."""


def scenario_list() -> list[ScenarioInfo]:
    """The missions, in the data's order (the beta rulebook prints no pages: lines instead)."""
    return [ScenarioInfo(id=s.id, name=s.name, page=s.page,
                         players=players_text(s.players, s.players),
                         description=s.description, min_players=s.players,
                         max_players=s.players, lines=s.lines)
            for s in DEVILS_RUN.scenarios]


def _refuse(request: GameRequest) -> None:
    """Options Devil's Run does not have, each refused by name."""
    if request.team_files or request.random_teams:
        name = "--team" if request.team_files else "--teams"
        raise SetupRefused(f"{name}: Devil's Run plays the mission's own gangs (the Law "
                           "and the Haul's Angels); leave it out")
    if request.players is not None and request.players != 2:
        raise SetupRefused(f"--players: Devil's Run has 2 players, not {request.players}")
    if request.max_rounds is not None:
        raise SetupRefused("--max-rounds: a Devil's Run mission sets its own turn limit; "
                           "leave it out")
    for name, given in (("--option", bool(request.options)), ("--sides", request.sides),
                        ("--table", request.table), ("--sponsored", request.sponsored)):
        if given:
            raise SetupRefused(f"{name}: Devil's Run has no such option")


def _game(game: PlayableGame) -> DevilsRunGame:
    if not isinstance(game, DevilsRunGame):
        raise TypeError(f"not a Devil's Run game: {type(game).__name__}")
    return game


class DevilsRunGames:
    """Games of one mission (``kernel/session.py`` ``GameMaker``)."""

    def __init__(self, request: GameRequest) -> None:
        _refuse(request)
        try:
            self.mission = DEVILS_RUN.scenario(request.scenario or DEVILS_RUN.scenarios[0].id)
        except ValueError as e:
            raise SetupRefused(str(e)) from None

    @property
    def scenario_name(self) -> str:
        return self.mission.name

    @property
    def players(self) -> int:
        return self.mission.players

    def new_game(self, seed: int) -> DevilsRunGame:
        return DEVILS_RUN.new_game(self.mission.id, seed=seed)

    def log_text(self, game: PlayableGame, seed: int) -> str:
        g = _game(game)
        head = {"carnage_log": LOG_VERSION, "scenario": self.mission.id, "seed": seed,
                "setup": dict(g.setup), "choices": list(g.choices)}
        lines = [json.dumps(head, sort_keys=True)]
        lines += [json.dumps(e.to_json(), sort_keys=True) for e in g.log]
        return "\n".join(lines) + "\n"

    def report(self, game: PlayableGame) -> list[ReportRow]:
        """Turn, chassis tokens collected (Hell on Wheels) and the vehicles still running."""
        g = _game(game)
        st = g.state
        running = {p: len(g.active(p)) for p in range(self.players)}
        rows = [ReportRow("turn", "Turn", str(st.turn), value=st.turn),
                ReportRow("running", "Vehicles running",
                          ", ".join(f"{gang_name(g, p)}: {n}" for p, n in running.items()))]
        if any(st.collected):
            rows.append(ReportRow("collected", "Chassis tokens collected",
                                  ", ".join(f"{gang_name(g, p)}: {n}"
                                            for p, n in enumerate(st.collected))))
        return rows

    def end_reason(self, game: PlayableGame) -> str:
        out = game.outcome()
        return out.reason if out is not None else "not finished"


def _header(text: str, source: str) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
    try:
        parsed = guard.log_lines(text, source)
        head = parsed[0][1] if parsed else None
        if not isinstance(head, dict) or head.get("carnage_log") != LOG_VERSION:
            raise SetupRefused(f"{source}:1: not a carnage log header (carnage_log: "
                               f"{LOG_VERSION})" if parsed else f"{source}: empty log")
        guard.check_log_header(head, f"{source}:{parsed[0][0]}")
    except guard.InputRefused as e:
        raise SetupRefused(str(e)) from None
    return head, parsed[1:]


def replay_log(text: str, source: str) -> ReplayReport:
    """A Devil's Run log replayed: the game rebuilt from its setup, its choices re-applied,
    every event compared (``SetupRefused`` if it cannot be read or replayed)."""
    head, rows = _header(text, source)
    setup, choices = head.get("setup"), head.get("choices")
    if not isinstance(setup, dict) or not isinstance(choices, list):
        raise SetupRefused(f"{source}:1: the header needs a setup object and a choices list")
    try:
        g = DEVILS_RUN.new_game(str(setup["scenario"]), list(setup["teams"]),
                                int(setup["seed"]))
    except (KeyError, TypeError, ValueError) as e:
        raise SetupRefused(f"{source}: the log's game cannot be set up ({e})") from None
    crash: str | None = None
    for i, c in enumerate(choices):
        if g.pending() is None:
            raise SetupRefused(f"choice {i + 1} of {len(choices)}: the game was already over")
        try:
            g.apply(c)
        except IllegalChoice as e:
            raise SetupRefused(f"choice {i + 1} of {len(choices)}: {e}") from None
        except Exception as e:  # reproduce a crash as logged; the caller reports it
            crash = f"choice {i + 1}: {type(e).__name__}: {e}"
            break
    logged = [json.loads(json.dumps(raw, sort_keys=True)) for _, raw in rows]
    fresh = [json.loads(json.dumps(e.to_json(), sort_keys=True)) for e in g.log]
    seed = head.get("seed")
    return ReplayReport(g, str(setup["scenario"]), seed if isinstance(seed, int | str) else 0,
                        len(choices), len(logged), compare_events(logged, fresh), crash)
