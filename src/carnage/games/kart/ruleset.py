"""The Kart variant as a ``Ruleset``: an overlay of Refuelled that overrides only what differs.

Its rule table is Refuelled's plus ``("ruleset", "kart")`` (carnage/games/kart/rules/), which every
game of this ruleset installs once; its races are Refuelled's Street Race and Death Race with
kart teams by default (ruling MK-R3); its catalogue, templates and hooks are Refuelled's. The
choices the variant leaves open are data (games/kart/data/kart.yaml).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from carnage.games.kart import rules as kart_rules
from carnage.games.kart.odds_queries import KART_QUERIES
from carnage.games.kart.pending import KART_PENDING
from carnage.games.refuelled.engine.hooks import REFUELLED_HOOKS
from carnage.games.refuelled.ruleset import refuelled_rules, refuelled_ruleset
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.kernel.briefing import BriefRule, Cite
from carnage.kernel.rules import RuleTable
from carnage.team import TeamSpec
from carnage.team.io import parse_team

if TYPE_CHECKING:
    from carnage.games.refuelled.scenarios import TableScenario
    from carnage.kernel.search import SearchAdapter

COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")


def kart_teams(players: int) -> tuple[TeamSpec, ...]:
    """The kart teams of ``players`` players (ruling MK-R1, MK-R2: the data file's karts)."""
    data = kart_rules.kart_data()
    teams = []
    for p in range(players):
        colour = COLOURS[p % len(COLOURS)] + ("" if p < len(COLOURS) else f" {p + 1}")
        vehicles = [
            {"name": f"{colour} {k['name']}", "type": data["karts"][k["kart"]],
             "weapons": [dict(i) for i in k["items"]]}
            for k in data["default_team"]
        ]
        teams.append(parse_team({"name": f"{colour} Karts", "cans": 50, "vehicles": vehicles},
                                f"kart team {p + 1}"))
    return tuple(teams)


def kart_advice(game: Any, decision: Any) -> Any:
    """How a bot races a kart, which no hit can wreck: it smashes every rival kart it
    collides with (the hits only give Hazards, and a rival pushed to 6 wipes out), evades
    walls (they gain nothing from hits), and otherwise races as the race advises."""
    if decision.kind != "collision_reaction":
        return None
    values = [o.value for o in decision.options]
    rival = game.state.vehicles.get(decision.target or "")
    if rival is not None and "smash" in values:
        return "smash"
    return "evade" if "evade" in values else None


VARIANT = "Kart variant"


def _kart(section: str) -> Cite:
    """A section of the Kart variant (a web page: no page numbers)."""
    return Cite(VARIANT, where=section)


KART_RULES = (
    BriefRule("Karts", "A player who brings no team races a light and a middle kart (a Buggy "
              "and a Car, our choice of stat lines), each carrying a machine gun as its item.",
              _kart("Item Attack; our rulings MK-R1, MK-R2")),
    BriefRule("No damage", "Hits never take off Hull: every uncancelled hit, from items or "
              "smashes, gives the target a Hazard token instead, so nothing is wrecked.",
              _kart("Item Attack")),
    BriefRule("Wipeout", "A kart with 6 or more Hazards wipes out: down to gear 1, its "
              "Hazards cleared, turned to a random facing.", _kart("Wipeout")),
    BriefRule("Collisions", "Each kart in a collision gains a Hazard whatever it declared; "
              "walls always smash; a heavier kart rolls more smash dice, a lighter one fewer.",
              _kart("Collisions; Smash Attack Dice")),
)
"""What differs when a race is run in karts, in our words (the variant's page by section)."""


def kart_scenario(cls: type[TableScenario]) -> type[TableScenario]:
    """``cls`` with kart teams when the players bring none and kart advice for bots (same id,
    same rules)."""

    def default_teams(self: Any, players: int) -> tuple[TeamSpec, ...]:
        return kart_teams(players)

    def bot_choice(self: Any, game: Any, decision: Any) -> Any:
        pick = kart_advice(game, decision)
        return pick if pick is not None else cls.bot_choice(self, game, decision)

    return cast("type[TableScenario]", type(cls.__name__, (cls,), {
        "default_teams": default_teams, "bot_choice": bot_choice,
        "summary": KART_SUMMARIES.get(cls.id, cls.summary),
        "variant": VARIANT, "variant_rules": KART_RULES,
        "__doc__": f"{cls.__name__} raced in karts."}))


KART_SUMMARIES = {
    "street-race": "Two karts each race from the start flags to the finish flags; hits only "
                   "pile on Hazards, and the first kart across the finish line wins.",
    "death-race": "Karts race through numbered one-way gates in order; hits only pile on "
                  "Hazards, and the first kart across the finish line wins.",
}
"""The races' one-line summaries when run in karts (the lobby's and the table's)."""


def kart_search_adapter(players: int) -> SearchAdapter:
    """The search bot's adapter for a Kart race (``games/kart/search.py``), imported when a
    search first asks."""
    from carnage.games.kart.search import KartAdapter

    return KartAdapter(players)


def _kart_scenarios() -> dict[str, type[TableScenario]]:
    return {sid: kart_scenario(SCENARIOS[sid]) for sid in kart_rules.kart_data()["scenarios"]}


KART = refuelled_ruleset(
    name="kart", title="Kart variant",
    rules=RuleTable.merged([refuelled_rules(), kart_rules.RULES]),
    hooks=REFUELLED_HOOKS, scenarios=_kart_scenarios(), parent="refuelled",
    view={"hull": False}, queries=KART_QUERIES, pending=KART_PENDING,
    search=kart_search_adapter,
)
"""Refuelled with the Kart variant's rules: hits give Hazards, no Hull track."""
