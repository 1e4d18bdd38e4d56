"""Refuelled's tourney games (``Ruleset.tourney``, ``kernel/tourney.py``): what
``analysis/tourney.py`` needs of a game of Refuelled, the Kart variant or Legacy (each ruleset
made by ``refuelled_ruleset`` declares one for itself).

A team is a team file (``team.TeamSpec``) checked by the ruleset's build rules; a game's set-up
is a ``GameSetup`` as JSON; a vehicle's tally reads the game's log. Damage dealt is the hull
points the other team's vehicles lost to its attacks (damage events logged under ``attack``
while it is the declared attacker) and to collisions it was the other party of
(``collision`` damage); damage from hazards, flips, fire or explosions is dealt by no one. A
vehicle survived if it is still active at the end (not wrecked, exploded or disqualified).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.setup import GameSetup, SetupError, build_game, checked_team
from carnage.kernel.contract import PlayableGame
from carnage.kernel.events import JsonValue
from carnage.kernel.tourney import Entrant, Tally, TourneyOffer, TourneyTeam
from carnage.team import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset

DEFAULT_SCENARIO = "street-race"


def damage_tally(game: Game) -> tuple[dict[str, int], dict[str, int]]:
    """(hull points each vehicle dealt to other players' vehicles, hull points each lost):
    the hull points marked off, so a wrecking blow counts only what the target had left."""
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    owner = {vid: v.player for vid, v in game.state.vehicles.items()}
    hull = {vid: v.hull for vid, v in game.state.vehicles.items()}
    attacker: str | None = None
    colliding: tuple[str, str] | None = None
    for e in game.log:
        if e.kind == "activation":
            attacker, colliding = None, None
        elif e.kind == "declare_attack":
            attacker = str(e.data.get("vehicle"))
        elif e.kind == "collision":
            colliding = (str(e.data.get("vehicle")), str(e.data.get("other")))
        elif e.kind == "damage":
            vid = str(e.data.get("vehicle"))
            left = e.data.get("hull_points")
            if vid not in hull or not isinstance(left, int):
                continue
            amount = max(0, hull[vid] - left)  # what was marked off, not what was rolled
            hull[vid] = left
            taken[vid] = taken.get(vid, 0) + amount
            by: str | None = None
            if e.source == "attack":
                by = attacker
            elif e.source == "collision" and colliding is not None and vid in colliding:
                by = colliding[1] if colliding[0] == vid else colliding[0]
            if by is not None and by in owner and owner.get(vid) != owner[by]:
                dealt[by] = dealt.get(by, 0) + amount
    return dealt, taken


def tally(game: PlayableGame) -> list[Tally]:
    """Every vehicle of ``game`` in the state's order (seat by seat, a team's in its file's
    order): still active at the end, damage dealt and taken."""
    if not isinstance(game, Game):
        raise SetupError(f"a tourney tally needs a game of the Refuelled engine, not "
                         f"{type(game).__name__}")
    dealt, taken = damage_tally(game)
    return [Tally(v.player, v.status is Status.ACTIVE, dealt.get(vid, 0), taken.get(vid, 0))
            for vid, v in game.state.vehicles.items()]


def _spec(team: TourneyTeam, who: str) -> TeamSpec:
    if not isinstance(team, TeamSpec):
        raise SetupError(f"{who}: not a team file's team ({type(team).__name__})")
    return team


def tourney_offer(ruleset: Callable[[], RefuelledRuleset]) -> TourneyOffer:
    """The tourney offer of the ruleset ``ruleset()`` returns (called when a tourney asks: the
    ruleset is made after its offer)."""

    def check_team(team: TourneyTeam, who: str) -> list[Entrant]:
        report = checked_team(_spec(team, who), who, ruleset())
        return [Entrant(v.name, v.type) for v in report.vehicles]

    def setup(scenario: str, teams: Sequence[TourneyTeam],
              max_rounds: int) -> dict[str, JsonValue]:
        specs = tuple(_spec(t, f"team {i + 1}") for i, t in enumerate(teams))
        return GameSetup(scenario=scenario, teams=specs, players=2, max_rounds=max_rounds,
                         ruleset=ruleset().name).to_json()

    def new_game(doc: Mapping[str, JsonValue], seed: int) -> Game:
        return build_game(GameSetup.from_json(dict(doc)), seed, ruleset=ruleset())

    def own_teams(scenario: str) -> tuple[TeamSpec, ...]:
        try:
            teams: tuple[TeamSpec, ...] = tuple(
                ruleset().scenario_class(scenario)().default_teams(2))
        except ValueError as e:
            raise SetupError(str(e)) from None
        return teams

    return TourneyOffer(default_scenario=DEFAULT_SCENARIO, max_rounds=RuleOptions.max_rounds,
                        check_team=check_team, setup=setup, new_game=new_game, tally=tally,
                        own_teams=own_teams)
