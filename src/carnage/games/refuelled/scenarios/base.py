"""What a playable scenario adds to the engine's ``Scenario``: a table, terrain, default
teams and a goal for bots (Refuelled pp.62, 122-151)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.games.refuelled.engine.bot_facing import Advice, Line, crosses
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios.common.spawn import spawn_advice
from carnage.kernel.briefing import BriefRule, Cite, ScenarioBrief, Scoreboard, SeatScore
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    import random

    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.kernel.decisions import Decision
    from carnage.team import TeamReport

TELEVISED = "Televised Event"
SKIRMISH = "Wasteland Skirmish"
SPECIAL = "Special Event"
TABLES = (TELEVISED, SKIRMISH, SPECIAL)
"""The three scenario tables of Refuelled p.122 (G-03)."""

__all__ = ["SKIRMISH", "SPECIAL", "TABLES", "TELEVISED", "Line", "TableScenario", "crosses"]


class TableScenario(Scenario):
    """A scenario that lays out its own table: size, terrain, default teams, bot goal."""

    width = 900.0
    height = 1200.0
    min_players = 2
    max_players: int | None = None
    """None: no upper limit."""
    summary = ""
    """One line in our own words (``carnage scenarios``, the lobby)."""
    table: str | None = None
    """The random table of p.122 the scenario is on (``TELEVISED``, ``SKIRMISH``,
    ``SPECIAL``), None for none (Street Race)."""
    table_rolls: tuple[int, ...] = ()
    """The D6 results that pick it on its table (G-03)."""
    options_schema: ClassVar[dict[str, tuple[type, Any]]] = {}
    """Scenario variants a ``GameSetup.scenario_options`` may set: name -> (type, default)
    (e.g. Flag Tag's ``{"volatile_flags": (bool, False)}``)."""

    # -- what the scenario tells the players (kernel/briefing.py), in our own words ------------
    last_page: ClassVar[int | None] = None
    """The scenario's last page, if it runs over several (``page`` is the first)."""
    how_to_win: ClassVar[str] = ""
    """How it is won and when it ends, in our own words (``goal`` is the bots' aim)."""
    special_rules: ClassVar[tuple[BriefRule, ...]] = ()
    """Its special rules, each in a sentence or two with its page."""
    variant: ClassVar[str] = ""
    """The ruleset that plays it with changes ("Kart variant"), set by that ruleset."""
    variant_rules: ClassVar[tuple[BriefRule, ...]] = ()
    """What differs in ``variant``."""
    # -- how it keeps score (``scoreboard``) ----------------------------------------------------
    score_title: ClassVar[str] = ""
    """What the scoreboard counts ("Victory Points"); empty: vehicles in play."""
    score_target: ClassVar[str] = ""
    """How much wins, in a few words ("first to 3 VP")."""
    score_tallies: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The score tallies counted (common/score.py), each with its unit: the first ranks."""
    score_tokens: ClassVar[tuple[str, str] | None] = None
    """A kind of carried token counted as held by a seat's vehicles, with its unit."""

    def brief(self, game: Game | None = None) -> ScenarioBrief:
        """The scenario described from its own data: what it is, how it is won, its special
        rules with their pages, and what its ruleset changes (``game``: the game being
        played, whose options may add rules; None: before any game)."""
        out = ScenarioBrief(self.id, self.name, self.summary, self.how_to_win,
                            Cite("Refuelled", self.page, self.last_page) if self.page
                            else Cite("Refuelled", where="our own scenario"),
                            rules=self.special_rules)
        return out.with_variant(self.variant, self.variant_rules) if self.variant else out

    def scoreboard(self, game: Game) -> Scoreboard | None:
        """Each seat's progress in the scenario's terms: its tallies (``score_tallies``), the
        tokens its vehicles carry (``score_tokens``), and its vehicles in play. None: the
        scenario names nothing to count (``score_title``), a scenario made for a test."""
        from carnage.games.refuelled.scenarios.common import score, tokens

        if not (self.score_title or self.score_tallies or self.score_tokens):
            return None
        st = game.state
        totals = [(unit, score.side_totals(game, tally, with_vehicles=True))
                  for tally, unit in self.score_tallies]
        rows = []
        for p in range(st.players):
            side = score.side_of(game, p)
            parts = [f"{t.get(side, 0)} {unit}" for unit, t in totals]
            rank = float(totals[0][1].get(side, 0)) if totals else 0.0
            mine = [v for v in st.vehicles.values() if v.player == p and v.in_team]
            playing = [v for v in mine if v.in_play]
            if self.score_tokens is not None:
                kind, unit = self.score_tokens
                held = sum(len(tokens.carried_by(st, v.id, kind)) for v in st.vehicles.values()
                           if v.in_team and score.side_of(game, v.player) == side)
                parts.append(f"{held} {unit}")
                if not totals:
                    rank = float(held)
            details = (f"{len(playing)} of {len(mine)} vehicles in play",)
            if not parts:
                parts, rank = [f"{len(playing)} in play"], float(len(playing))
            rows.append(SeatScore(p, ", ".join(parts), rank, details, out=not playing))
        return Scoreboard(self.score_title or "Scores", tuple(rows), self.score_target)

    search_levels: ClassVar[Mapping[str, Mapping[str, int]]] = {}
    """The search levels' settings measured best in this scenario, where they differ from
    the adapter's (``RefuelledAdapter.budget``; the keys of ``SearchAdapter.budget``):
    Capture the Flag's hard level searches as a race's does."""

    search_leaves: ClassVar[frozenset[str]] = frozenset()
    """Decision kinds the search bot leaves to its rollout policy here, unsearched
    (``RefuelledAdapter.worth_searching``): choices the scenario's own bot advice answers
    better than a few dozen noisy rollouts can (Capture the Flag's setting a flag down)."""

    def search_hull(self, state: GameState, vehicle: VehicleState) -> float:
        """mm the search bot's value adds for each hull point ``vehicle`` has left, on top
        of the adapter's own (``RefuelledAdapter.HULL``): more where losing the vehicle costs
        more than the vehicle (Capture the Flag's flag carrier). 0 by default."""
        return 0.0

    race: ClassVar[bool] = False
    """Is this a race, won by crossing the finish line first and over in about two rounds (a
    Street Race)? There the search bot's own seat Pushes It as a racer should
    (``RefuelledAdapter.push_pick``) and its hard level searches as the race calls for
    (``RefuelledAdapter.RACE_LEVELS``). Elsewhere (games of many rounds, won on points, flags
    or the last car running) the hard level values its rollouts after 40 decisions
    (``RefuelledAdapter.LEVELS``, unless the scenario names its own: ``search_levels``;
    docs/performance.md, "The hard level in the objective scenarios: a horizon")."""

    round_limit: int | None = None
    """G-14: the game ends at the end of this round and ``final_scores`` decides it."""
    tie_breaks: tuple[str, ...] = ("vehicles_in_play", "hull_left")
    """Ruling SC-4: what separates sides tied on score (common/victory.py)."""
    scarper = False
    """G-13: a disqualified vehicle is not destroyed and keeps what it carries."""

    def check_end_at(self, game: Game, moment: str) -> None:
        super().check_end_at(game, moment)
        st = game.state
        if (moment == "gear_phase_end" and self.round_limit is not None and not st.finished
                and st.round >= self.round_limit and st.gear_phase >= 6):
            self.final_scores(game)

    def final_scores(self, game: Game) -> None:
        """The end of the game at the round limit: by default the side with the most Victory
        Points wins (common/victory.py ``decide``; ties by ruling SC-4)."""
        from carnage.games.refuelled.scenarios.common import score, victory

        victory.decide(game, score.side_totals(game, score.VP),
                       f"most Victory Points after {self.round_limit} rounds",
                       tie_breaks=self.tie_breaks, source=self.id.replace("-", "_"),
                       page=self.page)

    def lay_out(self, state: GameState) -> None:
        """Put the scenario's fixed terrain on ``state`` (called once, before the game
        starts, unless a table laid out by hand is loaded)."""

    def generate(self, state: GameState, rng: random.Random) -> None:
        """Lay out the table from ``rng`` (a ``random.Random`` seeded from the game's table
        seed, ``state.scenario["table_seed"]``, so a replay lays out the same table). The
        default lays out the fixed terrain of ``lay_out``. Scenario options are in
        ``state.scenario["options"]`` already."""
        self.lay_out(state)

    def check_team(self, spec: TeamSpec, who: str, ruleset: RefuelledRuleset | None = None
                   ) -> TeamReport:
        """The team's report for this scenario; ``SetupError`` if it is not legal here. The
        default is the builder's rules (``rulesets.setup.checked_team``); a scenario that sets
        its own team composition (M-32) overrides it."""
        from carnage.games.refuelled.setup import checked_team

        return checked_team(spec, who, ruleset)

    def teams_checked(self, state: GameState, reports: Sequence[TeamReport]) -> None:
        """Called once every seat's team is checked (``check_team``, in seat order) and
        added to ``state``: a scenario that judges the teams together keeps what it needs in
        ``state.scenario`` here (never on itself). Nothing by default."""

    def bot_choice(self, game: Game, decision: Decision) -> Advice:
        """The scenario's advice for a decision it asks (which flag to set down, where to put
        a spawn point; ``engine/bot_facing.py``). The default advises on spawn points
        (common/spawn.py); call ``super().bot_choice`` for decisions you do not advise on."""
        return spawn_advice(game, decision)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """Teams the scenario prescribes when the players bring none."""
        return ()
