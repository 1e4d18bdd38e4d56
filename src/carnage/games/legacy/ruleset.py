"""Gaslands: Legacy as a ``Ruleset``: an overlay of Refuelled that overrides only what differs.

Its catalogue is Refuelled's plus the Legacy-only upgrades (the Nano-Cloaking Device,
``legacy.catalog``); its rule table is Refuelled's plus ``("ruleset", "legacy")`` and the
Legacy vehicle rules (carnage/games/legacy/rules/: Televised Carnage, Live Fast, mutation traits,
the Nano-Cloaking Device); its hooks and templates are Refuelled's. Its scenarios are
Refuelled's, played by Legacy teams: a team must pass the Legacy build rules
(``games/legacy/team.py``), and players who bring none each get the same two generated vehicles
(``legacy_teams``). Audience Votes are never carried from one game to the next (GL-022): a
game starts with only what its set-up hands it (``pregame["votes"]``, the handicaps).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from carnage.catalog import load_catalog
from carnage.games.legacy import rules as legacy_rules
from carnage.games.legacy.catalog import legacy_catalog
from carnage.games.legacy.generator import generate_vehicle, legacy_team
from carnage.games.legacy.names import vehicle_name
from carnage.games.legacy.rules.chapters import chapter_scenario
from carnage.games.legacy.team import is_legacy
from carnage.games.legacy.tools import LEGACY_TOOLS
from carnage.games.refuelled.engine.hooks import REFUELLED_HOOKS
from carnage.games.refuelled.odds_queries import REFUELLED_QUERIES
from carnage.games.refuelled.ruleset import refuelled_rules, refuelled_ruleset
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.kernel.campaign_modes import CampaignMode, LazyMapping
from carnage.kernel.rules import RuleTable
from carnage.kernel.ruleset import RulesetPage, WebFiles
from carnage.team import TeamReport, TeamSpec

if TYPE_CHECKING:
    import typer

    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.games.refuelled.scenarios import TableScenario

TEAM_TYPES = (("car", "performance_car"), ("truck", "buggy"), ("buggy", "car"),
              ("performance_car", "truck"))
"""The pairs of types a random Legacy team draws from (``random_legacy_team``)."""
DEFAULT_TYPES = TEAM_TYPES[0]
"""The types of the generated default teams: the same pair for every seat (ruling GL-R26)."""
COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Teal")
"""The seats' colours that tell the default teams' alike vehicles apart."""


def random_legacy_team(seed: str, name: str | None = None) -> TeamSpec:
    """A Legacy team drawn from ``seed``: two generated vehicles of one of the pairs of types
    the generated teams use, named by the name generator from the seed."""
    import random

    types = random.Random(f"legacy-team:{seed}").choice(TEAM_TYPES)
    vehicles = [generate_vehicle(t, vehicle_name(f"{seed} vehicle {i + 1}"))
                for i, t in enumerate(types)]
    if vehicles[0].name == vehicles[1].name:
        vehicles[1] = generate_vehicle(types[1], vehicles[1].name + " II")
    return legacy_team(name or f"Legacy {seed}", vehicles)


def legacy_teams(players: int) -> tuple[TeamSpec, ...]:
    """The teams a game builds when the players bring none: every seat the same two generated
    Legacy vehicles (``DEFAULT_TYPES``, named by our name generator from fixed seeds, so the
    same every time), named apart by the seat's colour. The book has no default teams and
    treats the players alike (GL-018, GL-050), so no seat gets a better pair (ruling GL-R26)."""
    types = DEFAULT_TYPES
    vehicles = [generate_vehicle(t, vehicle_name(f"seat 1 vehicle {i + 1}"))
                for i, t in enumerate(types)]
    if vehicles[0].name == vehicles[1].name:
        vehicles[1] = generate_vehicle(types[1], vehicles[1].name + " II")
    teams = []
    for p in range(players):
        colour = COLOURS[p % len(COLOURS)] + ("" if p < len(COLOURS) else f" {p + 1}")
        teams.append(legacy_team(f"{colour} Legacy Team", [
            v.model_copy(update={"name": f"{colour} {v.name}"}) for v in vehicles]))
    return tuple(teams)


CLOAK_ABOVE = 3
"""A bot cloaks while its vehicle has more Hull Points than this left (one box is cheap then)."""


def legacy_advice(game: Any, decision: Any) -> Any:
    """How a bot answers a Legacy decision: it cloaks (GL-099) while it has Hull to spare."""
    if decision.kind != "nano_cloak":
        return None
    v = game.state.vehicles.get(decision.vehicle or "")
    return legacy_rules.YES if v is not None and v.hull_points > CLOAK_ABOVE else legacy_rules.NO


def legacy_scenario(cls: type[TableScenario]) -> type[TableScenario]:
    """``cls`` played by Legacy teams (same id, same rules): generated teams when the players
    bring none, and only Legacy teams accepted."""

    def default_teams(self: Any, players: int) -> tuple[TeamSpec, ...]:
        return legacy_teams(players)

    def check_team(self: Any, spec: TeamSpec, who: str,
                   ruleset: RefuelledRuleset | None = None) -> TeamReport:
        from carnage.games.refuelled.setup import SetupError

        if not is_legacy(spec):
            raise SetupError(f"{who} ({spec.name}): the Legacy ruleset plays Legacy teams "
                             "(make its vehicles with 'carnage legacy generate')")
        report: TeamReport = cls.check_team(self, spec, who, ruleset)
        return report

    def bot_choice(self: Any, game: Any, decision: Any) -> Any:
        pick = legacy_advice(game, decision)
        return pick if pick is not None else cls.bot_choice(self, game, decision)

    def random_team(self: Any, seed: str, cans: int, seat: int, players: int, *,
                    name: str | None = None, **_: Any) -> TeamSpec:
        """Legacy teams are generated, not bought: a random one (the budget is ignored)."""
        return random_legacy_team(seed, name)

    return cast("type[TableScenario]", type(cls.__name__, (cls,), {
        "default_teams": default_teams, "check_team": check_team, "bot_choice": bot_choice,
        "random_team": random_team, "__doc__": f"{cls.__name__} with Legacy teams."}))


SCENARIO_IDS = ("street-race", "death-race", "arena-of-death", "express-delivery",
                "automated-salvage", "zombie-bash", "big-game-hunter", "scavenger-party",
                "capture-the-flag", "flag-tag", "saturday-night-live")
"""Refuelled's scenarios a Legacy team plays: every one but those that set their own team
composition (Desert Strike, Tank Commander, Truckasaurus, Monster Truck Smash, the
Televised Season's own)."""

_CATALOG = legacy_catalog(load_catalog())


def _campaign_modes() -> dict[str, CampaignMode]:
    """Legacy's campaign (chapters 1-5), imported when a campaign first asks."""
    from carnage.games.legacy.campaign import LEGACY as MODE

    return {MODE.id: MODE}


def _cli() -> typer.Typer:
    """``carnage legacy ...``: generate, rate and build Legacy teams (games/legacy/cli.py)."""
    from carnage.games.legacy.cli import app

    return app

WEB = WebFiles("legacy", Path(__file__).resolve().parent / "web")
"""Legacy's browser files (games/legacy/web): its vehicle generator page (the table is
Refuelled's)."""
GENERATOR_PAGE = RulesetPage(path="generator", title="Legacy generator", files=WEB,
                             file="generator.html", aliases=("/legacy",))
"""Our Legacy vehicle generator in the browser (``/api/legacy/...``), not the official app."""

LEGACY = refuelled_ruleset(
    name="legacy", title="Gaslands: Legacy", catalog=_CATALOG,
    rules=RuleTable.merged([refuelled_rules(_CATALOG), legacy_rules.RULES]),
    hooks=REFUELLED_HOOKS,
    scenarios={sid: chapter_scenario(legacy_scenario(SCENARIOS[sid])) for sid in SCENARIO_IDS
               if sid in SCENARIOS},
    parent="refuelled", cli=_cli,
    campaign_modes=LazyMapping(_campaign_modes), pages=(GENERATOR_PAGE,),
    queries=(*REFUELLED_QUERIES, *LEGACY_TOOLS),
)
"""Refuelled with Gaslands: Legacy's teams, catalogue and vote rules."""
