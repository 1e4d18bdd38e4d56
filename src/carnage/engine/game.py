"""The ``Game``: state + flow + dice + log + effects, driven by decisions.

The flow of play (round -> gear phase -> activation -> steps, Refuelled pp.19-35) is written as
generator functions that ``yield`` a ``Decision`` whenever a player must choose and receive the
validated choice back. ``Game.pending()`` shows the current decision; ``Game.apply(choice)``
validates it (raising ``IllegalChoice`` without touching the state) and runs the flow to the
next decision. The game replays exactly from its setup, its dice seed and its list of choices.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from carnage.engine.state import GameState, VehicleState
from carnage.geometry.templateset import TemplateSet, default_template_set
from carnage.kernel.decisions import Decision, IllegalChoice, Option
from carnage.kernel.dice import DiceSource, SeededDice
from carnage.kernel.effects import EffectRegistry
from carnage.kernel.events import EventLog, JsonValue

if TYPE_CHECKING:
    from carnage.engine.scenario import Scenario

Flow = Generator[Decision, Any, None]
"""A step of play: yields decisions, receives the chosen values."""


class GameOver(IllegalChoice):
    """A choice was applied to a finished game."""


@dataclass(frozen=True)
class RuleOptions:
    touch_it_use_it: bool = True
    """Refuelled p.38: an unpermitted template pick passes the choice to the next player."""
    max_rounds: int = 40
    """Safety net: a game still running after this many rounds ends in a draw."""


@dataclass
class Outcome:
    winner: int | None
    draw: bool
    reason: str
    rounds: int


@dataclass
class Game:
    state: GameState
    scenario: Scenario
    dice: DiceSource = field(default_factory=lambda: SeededDice(0))
    options: RuleOptions = field(default_factory=RuleOptions)
    templates: TemplateSet = field(default_factory=default_template_set)
    log: EventLog = field(default_factory=EventLog)
    effects: EffectRegistry = field(default_factory=EffectRegistry)
    choices: list[JsonValue] = field(default_factory=list)
    outcome_reason: str = ""
    _pending: Decision | None = None
    _flow: Flow | None = None

    def __post_init__(self) -> None:
        from carnage.engine.flow import game_flow
        from carnage.engine.rulebook import install_rules

        self.scenario.install(self)
        install_rules(self)

        self._flow = game_flow(self)
        self._advance(None, first=True)

    # -- the controller API ----------------------------------------------------------------------
    def pending(self) -> Decision | None:
        """The decision the game is waiting for, or None when the game is over."""
        return self._pending

    def apply(self, choice: Any) -> None:
        """Take ``choice`` for the pending decision; ``IllegalChoice`` leaves the game as it was."""
        d = self._pending
        if d is None:
            raise GameOver("the game is over: no decision is pending")
        value = d.validate(choice)
        self.choices.append(value)
        self.log.emit(
            "decision", source=d.source, page=d.page, player=d.player, decision=d.kind,
            choice=value,
        )
        self._advance(value)

    def outcome(self) -> Outcome | None:
        if not self.state.finished:
            return None
        return Outcome(self.state.winner, self.state.draw, self.outcome_reason, self.state.round)

    # -- helpers for rules code ------------------------------------------------------------------
    def roll(
        self, n: int, why: str, source: str = "core", page: int | None = None, **data: JsonValue
    ) -> list[int]:
        """Roll ``n`` D6 together and log them."""
        out = self.dice.roll(max(0, n))
        self.log.emit("roll", source=source, page=page, why=why, dice=list(out), **data)
        return out

    def emit(
        self, kind: str, source: str = "core", page: int | None = None, **data: JsonValue
    ) -> None:
        self.log.emit(kind, source=source, page=page, **data)
        # ``logged:<kind>`` notice (issue 6): rules watching a logged change, e.g. On Fire goes
        # out when the vehicle's Hazards drop to zero (p.81).
        self.effects.run_event(f"logged:{kind}", None, {"game": self, "data": data})

    def stat(self, v: VehicleState, name: str) -> int:
        """A derived value (handling, max_gear, crew, ...) passed through the effects."""
        base = int(getattr(v, name))
        out = self.effects.run_event(f"stat:{name}", base, {"game": self, "vehicle": v})
        return int(out) if isinstance(out, int) else base

    def finish(self, winner: int | None, reason: str, draw: bool = False) -> None:
        if self.state.finished:
            return
        self.state.finished = True
        self.state.winner = winner
        self.state.draw = draw
        self.outcome_reason = reason
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
        if n > 0:
            # ``hazards_gained`` hook (issue 6): e.g. Old Fashioned Corn Liquor adds one (p.103).
            out = self.effects.run_event("hazards_gained", n, {"game": self, "vehicle": v,
                                                               "source": source})
            n = max(0, int(out)) if isinstance(out, int) else n
        elif n < 0:
            # ``hazards_lost`` hook (P2): Hazards about to be discarded (Don't Come Knocking
            # forbids it, p.112).
            out = self.effects.run_event("hazards_lost", -n, {"game": self, "vehicle": v,
                                                              "source": source})
            n = -max(0, int(out)) if isinstance(out, int) else n
        if n == 0:
            return
        v.hazards = max(0, v.hazards + n)
        self.emit("hazards", source=source, page=page, vehicle=v.id, change=n, hazards=v.hazards)

    # -- internals -------------------------------------------------------------------------------
    def _advance(self, value: Any, first: bool = False) -> None:
        assert self._flow is not None
        try:
            d = next(self._flow) if first else self._flow.send(value)
            while len(d.options) == 1 and d.domain is None:
                # One legal option is no choice: take it, and say so in the log.
                only = d.options[0].value
                self.emit(
                    "forced_choice", source=d.source, page=d.page, player=d.player,
                    decision=d.kind, choice=only,
                )
                d = self._flow.send(only)
            self._pending = d
        except StopIteration:
            self._pending = None


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
) -> Decision:
    """A decision over labelled options, about ``vehicle`` (and ``target``, ``weapon``)."""
    return Decision(
        player, kind, prompt, options=tuple(Option(v, lbl) for v, lbl in options),
        source=source, page=page, vehicle=vehicle, target=target, weapon=weapon,
    )


Hook = Callable[["Game"], Flow]
