"""The ``Game`` of Gaslands: Refuelled: the kernel's driver with Refuelled's state and flow.

The flow of play (round -> gear phase -> activation -> steps, Refuelled pp.19-35) is written as
generator functions that ``yield`` a ``Decision`` whenever a player must choose and receive the
validated choice back (engine/flow.py). ``Game.pending()`` shows the current decision;
``Game.apply(choice)`` validates it (raising ``IllegalChoice`` without touching the state) and
runs the flow to the next decision. ``clone()`` and ``snapshot()`` come from the kernel
(kernel/game.py): all of a game's memory is in ``state``. The rules, catalogue, templates and
scenarios come from the game's ``Ruleset`` (carnage/rulesets/), never from globals.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.engine.table_facts import TableFacts, facts_source
from carnage.kernel.decisions import Decision, Option
from carnage.kernel.dice import DiceSource
from carnage.kernel.effect_ids import EffectId
from carnage.kernel.effects import EffectRegistry
from carnage.kernel.events import EventLog, JsonValue
from carnage.kernel.game import SNAPSHOT_VERSION, Flow, GameOver, Installer, KernelGame, Outcome
from carnage.kernel.rules import RULE_KEY, RuleTable

if TYPE_CHECKING:
    from carnage.catalog.loader import Catalog
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.games.refuelled.engine.scenario import Scenario
    from carnage.games.refuelled.engine.state import GameState, VehicleState
    from carnage.geometry.templateset import TemplateSet

__all__ = ["Flow", "Game", "GameOver", "Outcome", "RuleOptions", "ask"]

SCENARIO_KEY = "scenario"
"""Journal entry of the scenario's own effects."""

_STAT_HOOKS: dict[str, str] = {}
"""``stat:<name>`` by stat name, each hook's name made once."""


@mypyc_attr(native_class=False)  # a plain class: setup reads its defaults off the class
@dataclass(frozen=True)
class RuleOptions:
    touch_it_use_it: bool = True
    """Refuelled p.38: an unpermitted template pick passes the choice to the next player."""
    max_rounds: int = 40
    """Safety net: a game still running after this many rounds ends in a draw."""
    physical: bool = False
    """Companion mode: people play on a real table and report what the rules measure, each
    fact a pending decision (engine/table_facts.py); False: the engine measures its own
    virtual table."""


class Game(KernelGame[GameState]):
    """Refuelled's game: the kernel's driver (``KernelGame``) with the scenario, the ruleset,
    the rule options, the movement templates and where the table's facts come from. A
    compiled class (``carnage/compiled.py``), so that compiled rules code reads its fields
    directly; made with keywords (``Game(state=..., scenario=..., ruleset=...)``)."""

    scenario: Scenario
    ruleset: RefuelledRuleset
    options: RuleOptions
    templates: TemplateSet
    """The movement templates in use (by default the ruleset's)."""
    autostart: bool
    facts: TableFacts
    """Where the rules' facts about the table come from (engine/table_facts.py): by default
    the exact virtual table, or the people at a real one when ``options.physical``."""
    catalog: Catalog
    """The ruleset's catalogue, read once when the game is made (compiled rules code reads it
    often: a plain attribute, not a property calling Python each time)."""

    ruleset_name = "refuelled"
    state_type = GameState

    def __init__(self, state: GameState, dice: DiceSource | None = None,
                 log: EventLog | None = None, effects: EffectRegistry | None = None,
                 choices: list[JsonValue] | None = None, *, scenario: Scenario,
                 ruleset: RefuelledRuleset, options: RuleOptions | None = None,
                 templates: TemplateSet | None = None, autostart: bool = True,
                 facts: TableFacts | None = None, lazy_checkpoints: bool = False) -> None:
        super().__init__(state, dice, log, effects, choices, lazy_checkpoints=lazy_checkpoints)
        self.scenario = scenario
        self.ruleset = ruleset
        self.options = RuleOptions() if options is None else options
        self.autostart = autostart
        self.effects.hooks = ruleset.hooks
        self.catalog = ruleset.catalog
        self.facts = facts_source(self.options.physical) if facts is None else facts
        chosen = ruleset.templates if templates is None else templates
        if state.templates:
            from carnage.games.refuelled.engine.team_templates import game_template_set

            chosen = game_template_set(chosen, state)  # seats' own
        self.templates = chosen
        if autostart:
            self.start()

    # -- the ruleset's pieces ----------------------------------------------------------------------
    @property
    def rules(self) -> RuleTable:
        return self.ruleset.rules

    @property
    def players(self) -> int:
        """How many seats play (the game contract, ``kernel/contract.py``)."""
        return int(self.state.players)

    @property
    def outcome_reason(self) -> str:
        return self.state.reason

    # -- the kernel's hooks ----------------------------------------------------------------------
    def flow(self) -> Flow:
        from carnage.games.refuelled.engine.flow import game_flow

        return game_flow(self)

    def install_all(self) -> None:
        from carnage.games.refuelled.engine.rulebook import install_rules

        self.install(SCENARIO_KEY, _install_scenario)
        # A ruleset overlay's game-wide rules (the Kart variant): the ("ruleset", name) entry.
        self.install_rule("ruleset", self.ruleset.name, None,
                          EffectId("ruleset", self.ruleset.name))
        install_rules(self)

    def installer(self, key: str) -> Installer:
        if key == RULE_KEY:
            return _run_rule
        if key == SCENARIO_KEY:
            return _install_scenario
        return self.rules.installer(key)

    def config(self) -> dict[str, JsonValue]:
        options: dict[str, JsonValue] = {"touch_it_use_it": self.options.touch_it_use_it,
                                         "max_rounds": self.options.max_rounds}
        if self.options.physical:  # written only when set: exact games' configs unchanged
            options["physical"] = True
        return {"scenario": self.scenario.id, "options": options}

    def snapshot(self, version: int = SNAPSHOT_VERSION) -> dict[str, JsonValue]:
        doc = super().snapshot(version)
        doc["ruleset"] = self.ruleset.name  # an overlay (kart) restores as itself
        return doc

    def check_state(self, state: Any) -> None:
        """The ruleset's own check of a restored state (``Ruleset.check_state``)."""
        check = self.ruleset.check_state
        if check is not None:
            check(self, state)

    def blank(self, state: Any, dice: DiceSource, log: EventLog) -> Game:
        return Game(state=state, scenario=self.scenario, ruleset=self.ruleset, dice=dice,
                    log=log, options=self.options, templates=self.templates, autostart=False)

    def outcome(self) -> Outcome | None:
        if not self.state.finished:
            return None
        return Outcome(self.state.winner, self.state.draw, self.state.reason, self.state.round)

    def active_player(self, ctx: dict[str, Any]) -> int:
        """The active vehicle's controller; between activations, the controller of the vehicle
        the moment concerns (else the pole)."""
        from carnage.games.refuelled.engine.state import VehicleState

        st = self.state
        if st.active is not None and st.active in st.vehicles:
            return st.vehicles[st.active].player
        v = ctx.get("vehicle")
        return v.player if isinstance(v, VehicleState) else st.pole

    def order_simultaneous(self, event: str, ctx: dict[str, Any],
                           effects: list[str]) -> Generator[Decision, Any, int]:
        """Effects of different rules due at the same moment: the active player picks which
        resolves first (p.14)."""
        from carnage.games.refuelled.engine.state import VehicleState

        v = ctx.get("vehicle")
        pick = yield ask(
            self.active_player(ctx), "effect_order",
            "These rules happen at the same moment: resolve which one first?",
            [(i, effect_label(self, e)) for i, e in enumerate(effects)], source="simultaneous",
            page=14, vehicle=v.id if isinstance(v, VehicleState) else None)
        return int(pick)

    # -- helpers for rules code ------------------------------------------------------------------
    def install_rule(self, family: str, rule_id: str, vehicle: VehicleState | None,
                     source: EffectId | str | None = None) -> bool:
        """Install ``rule_id`` of ``family`` for ``vehicle`` (None: for a team) through the
        effect journal, as the effect ``source`` (default ``family:rule_id:vehicle``); False
        if the ruleset has no installer for it. The journal keeps the id's text."""
        if self.rules.get(family, rule_id) is None:
            return False
        vid = None if vehicle is None else vehicle.id
        eid = source if source is not None else EffectId(family, rule_id, vid)
        self.install(RULE_KEY, _run_rule, family, rule_id, vid, str(eid))
        return True

    def stat(self, v: VehicleState, name: str) -> int:
        """A derived value (handling, max_gear, crew, ...) passed through the effects."""
        base = int(getattr(v, name))
        hook = _STAT_HOOKS.get(name)
        if hook is None:
            hook = _STAT_HOOKS.setdefault(name, f"stat:{name}")
        if self.effects.idle(hook):
            return base
        out = self.effects.run_event(hook, base, {"game": self, "vehicle": v})
        return int(out) if isinstance(out, int) else base

    def finish(self, winner: int | None, reason: str, draw: bool = False) -> None:
        if self.state.finished:
            return
        self.state.finished = True
        self.state.winner = winner
        self.state.draw = draw
        self.state.reason = reason
        self.emit("game_over", source="scenario", winner=winner, draw=draw, reason=reason)

    def add_gear(self, v: VehicleState, delta: int, source: str, page: int | None) -> None:
        """Change gear by ``delta`` (clamped to 1..max gear), gaining 1 Hazard per change (p.23)."""
        for _ in range(abs(delta)):
            new = v.gear + (1 if delta > 0 else -1)
            if not 1 <= new <= self.stat(v, "max_gear"):
                break
            v.gear = new
            self.emit("gear", source=source, page=page, vehicle=v.id, gear=new)
            self.add_hazards(v, 1, "gear change", 23)

    def add_hazards(self, v: VehicleState, n: int, source: str, page: int | None) -> None:
        """Gain (``n`` > 0) or discard Hazard Tokens through the ``hazards_gained`` and
        ``hazards_lost`` hooks (Old Fashioned Corn Liquor p.103, Don't Come Knocking p.112)."""
        if n > 0:
            out = self.effects.run_event("hazards_gained", n, {"game": self, "vehicle": v,
                                                               "source": source})
            n = max(0, int(out)) if isinstance(out, int) else n
        elif n < 0:
            out = self.effects.run_event("hazards_lost", -n, {"game": self, "vehicle": v,
                                                              "source": source})
            n = -max(0, int(out)) if isinstance(out, int) else n
        if n == 0:
            return
        v.hazards = max(0, v.hazards + n)
        self.emit("hazards", source=source, page=page, vehicle=v.id, change=n, hazards=v.hazards)


def effect_label(game: Game, effect: str) -> str:
    """An effect id in plain words: the rule's catalogue name where it has one, and whose it
    is (``perk:slick:p1-car`` -> "Slick (Red Car)")."""
    eid = EffectId.read(effect)
    if eid is None:  # a dispatcher's own name (``perks@flip``)
        return effect.replace("_", " ")
    sections = {"perk": "perks", "upgrade": "upgrades", "weapon": "weapons",
                "sponsor": "sponsors"}
    name = eid.name.replace("_", " ").capitalize()
    section = getattr(game.catalog, sections.get(eid.kind, ""), None)
    if eid.kind == "sponsor" and eid.detail is not None:  # one of a sponsor's perks
        name = eid.detail.replace("_", " ").capitalize()
    elif section is not None and eid.name in section.records:
        name = section.records[eid.name].name
    owner = None if eid.subject is None else game.state.vehicles.get(eid.subject)
    return f"{name} ({owner.name})" if owner is not None else name


def _install_scenario(game: Game) -> None:
    game.scenario.install(game)


def _run_rule(game: Game, family: str, rule_id: str, vid: str | None, source: str) -> None:
    fn = game.rules.get(family, rule_id)
    if fn is None:
        raise KeyError(f"{game.ruleset.title} has no installer for {family} {rule_id!r}")
    fn(game, None if vid is None else game.state.vehicles[vid], source)


def ask(
    player: int,
    kind: str,
    prompt: str,
    options: Sequence[tuple[str | int, str]],
    source: str = "core",
    page: int | None = None,
    *,
    vehicle: str | None = None,
    target: str | None = None,
    weapon: str | None = None,
    hidden: bool = False,
) -> Decision:
    """A decision over labelled options, about ``vehicle`` (and ``target``, ``weapon``);
    ``hidden``: a secret choice, logged for ``player``'s eyes only."""
    return Decision(
        player, kind, prompt, options=tuple([Option(v, lbl) for v, lbl in options]),
        source=source, page=page, vehicle=vehicle, target=target, weapon=weapon,
        hidden=hidden,
    )
