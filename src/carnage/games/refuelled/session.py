"""What a Refuelled-family ruleset (Refuelled, the Kart variant, Legacy) offers the command
line, through its ``Ruleset`` (``kernel/session.py``): its scenarios as a list, games made from
a ``GameRequest`` (team files, players, scenario variants, team-game sides, a hand-laid table,
random teams), their logs, and ``carnage replay`` of those logs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.games.refuelled.setup import (
    GameSetup,
    SetupError,
    build_game,
    game_scenario,
    log_text,
    make_setup,
    own_ruleset,
    parse_log,
    parse_scenario_options,
    parse_sides,
    read_table,
    record_game,
    replay,
)
from carnage.kernel.contract import PlayableGame
from carnage.kernel.ruleset import ScenarioInfo, players_text
from carnage.kernel.session import GameRequest, ReplayReport, ReportRow

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset


def scenario_list(ruleset: RefuelledRuleset) -> list[ScenarioInfo]:
    """The ruleset's scenarios by id, each from its class's own attributes (its summary, or
    the first line of its docstring)."""
    out = []
    for sid, cls in sorted(ruleset.scenarios.items()):
        doc = (cls.__doc__ or "").strip().splitlines()
        low, high = int(cls.min_players), cls.max_players
        out.append(ScenarioInfo(
            id=str(sid), name=str(cls.name), page=cls.page, players=players_text(low, high),
            description=cls.summary or (doc[0] if doc else ""), min_players=low,
            max_players=high, extra={"table": cls.table}))
    return out


def with_scenario_options(setup: GameSetup, *, sides: str | None = None,
                          options: Sequence[str] | None = None,
                          table: Path | None = None) -> GameSetup:
    """``setup`` with the team-game sides, scenario options and hand-laid table given."""
    out = setup
    if sides is not None:
        out = replace(out, sides=parse_sides(sides, setup.players))
    if options:
        out = replace(out, scenario_options=parse_scenario_options(options))
    if table is not None:
        try:
            out = replace(out, table=read_table(table))
        except SetupError as e:
            raise SetupError(f"--table: {e}") from None
    return out


RANDOM_TEAM_DRAWS = 12
"""Draws of a game's random teams before the scenario is said to accept none."""


def random_teams_setup(base: GameSetup, cans: int, sponsored: bool | None = None,
                       ruleset: RefuelledRuleset | None = None) -> Callable[[int], GameSetup]:
    """``--teams random``: game ``seed`` gets its own random teams, one per player, drawn
    from what its scenario accepts of each seat (``Scenario.team_demand`` /
    ``random_team``) from ``team:<seed>:<seat>``, so every game's teams are known from its
    seed. Teams the scenario's checks or set-up still refuse (a starting grid too small
    for them) are drawn again from ``team:<seed>~<n>:<seat>``; after ``RANDOM_TEAM_DRAWS``
    draws a ``SetupError`` names the scenario and the last refusal. ``sponsored`` as in
    ``random_team`` (True: a sponsor and perks for every team). ``ruleset``: the one the
    games are played in (default: Refuelled's, when ``base`` names it)."""
    rules = ruleset if ruleset is not None else own_ruleset(base.ruleset)

    def setup_for(game_seed: int) -> GameSetup:
        scenario, _ = game_scenario(base, game_seed, rules)
        refused = ""
        for draw in range(RANDOM_TEAM_DRAWS):
            tag = str(game_seed) if draw == 0 else f"{game_seed}~{draw}"
            teams = tuple(scenario.random_team(
                f"{tag}:{p}", cans, p, base.players, ruleset=rules, sponsored=sponsored,
                name=f"Random {game_seed}/{p + 1}", options=base.options_dict())
                for p in range(base.players))
            setup = replace(base, teams=teams)
            try:
                build_game(setup, game_seed, ruleset=rules)  # the scenario's and set-up's checks
            except SetupError as e:
                refused = str(e)
                continue
            return setup
        raise SetupError(f"{scenario.name}: no random teams of {cans} cans it accepts in "
                         f"{RANDOM_TEAM_DRAWS} draws for game {game_seed} (last refused: "
                         f"{refused})")

    return setup_for


def end_reason(game: Game) -> str:
    """How a game ended, in words that do not name its vehicles or numbers (so games ending
    the same way count together): "<vehicle> crossed the finish line" -> "crossed the finish
    line", "no result after 40 rounds" -> "no result after N rounds"."""
    reason = str(game.state.reason)
    for v in sorted(game.state.vehicles.values(), key=lambda v: -len(v.name)):
        reason = reason.replace(v.name, "").strip()
    return re.sub(r"\d+", "N", reason).split(":")[0].strip() or "finished"


def _game(game: PlayableGame) -> Game:
    if not isinstance(game, Game):
        raise TypeError(f"not a game of this ruleset: {type(game).__name__}")
    return game


class RefuelledGames:
    """Games of one request in a Refuelled-family ruleset (``kernel/session.py``
    ``GameMaker``). ``SetupError`` (a ``SetupRefused``) names a bad request."""

    def __init__(self, ruleset: RefuelledRuleset, request: GameRequest) -> None:
        if request.random_teams and request.team_files:
            raise SetupError("--teams random and --team files cannot be used together")
        if request.sponsored is not None and not request.random_teams:
            raise SetupError("--sponsored/--no-sponsored apply only with --teams random")
        if request.players is not None and not 2 <= request.players <= 8:
            raise SetupError(f"--players must be 2 to 8, not {request.players}")
        self.ruleset = ruleset
        self.only_apply = request.only_apply
        setup = make_setup(request.scenario or "street-race", list(request.team_files),
                           players=request.players,
                           max_rounds=(RuleOptions.max_rounds if request.max_rounds is None
                                       else request.max_rounds))
        setup = with_scenario_options(setup, sides=request.sides, options=request.options,
                                      table=request.table)
        self.setup = replace(setup, ruleset=ruleset.name, physical=request.physical)
        self._setup_for: Callable[[int], GameSetup] | None = None
        if request.random_teams:
            from carnage.team.random_team import RandomTeamError

            try:
                self._setup_for = random_teams_setup(self.setup, request.cans,
                                                     request.sponsored, ruleset)
            except RandomTeamError as e:
                raise SetupError(f"--cans: {e}") from None

    def setup_for(self, seed: int) -> GameSetup:
        """The setup of the game begun from ``seed`` (its own random teams, if asked)."""
        if self._setup_for is None:
            return self.setup
        from carnage.team.random_team import RandomTeamError

        try:
            return self._setup_for(seed)
        except RandomTeamError as e:
            raise SetupError(f"--cans: {e}") from None

    @property
    def scenario_name(self) -> str:
        sid = self.setup.scenario
        if sid.startswith("random:"):
            return sid
        try:
            return str(self.ruleset.scenario_class(sid).name)
        except ValueError as e:
            raise SetupError(str(e)) from None

    @property
    def players(self) -> int:
        return self.setup.players

    def new_game(self, seed: int) -> Game:
        game = build_game(self.setup_for(seed), seed, ruleset=self.ruleset)
        game.lazy_checkpoints = self.only_apply
        return game

    def log_text(self, game: PlayableGame, seed: int) -> str:
        return log_text(record_game(_game(game), self.setup_for(seed), seed))

    def report(self, game: PlayableGame) -> list[ReportRow]:
        g = _game(game)
        return [ReportRow(r.key, r.label, r.text, r.tally, r.value)
                for r in g.scenario.report(g)]

    def end_reason(self, game: PlayableGame) -> str:
        return end_reason(_game(game))


def replay_log(ruleset: RefuelledRuleset, text: str, source: str) -> ReplayReport:
    """A Refuelled-family log replayed in ``ruleset`` (``SetupError`` if it cannot be read or
    its choices no longer apply)."""
    record = parse_log(text, source)
    try:
        result = replay(record, ruleset)
    except SetupError:
        raise
    except (ValueError, TypeError, RuntimeError, ArithmeticError) as e:  # a tampered header
        first = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        raise SetupError(f"{source}: the log's game cannot be set up ({first})") from None
    return ReplayReport(result.game, record.setup.scenario, record.seed, len(record.choices),
                        result.events, result.difference, result.crash)
