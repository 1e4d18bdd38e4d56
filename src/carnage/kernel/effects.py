"""Effects on hooks: how special rules plug into the engine without branches in the core.

An effect (a perk, sponsor rule, weapon or vehicle rule, variant) registers handlers for named
events. ``run_event`` passes a value through the handlers in priority order: a handler returns
``None`` to leave the value unchanged, a new value to replace it, or ``CANCEL`` to stop the
event. Modelled on Pokemon Showdown's ``runEvent`` (see shared/design/ARCHITECTURE.md).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from carnage.engine.game import Game


class _Cancel:
    _instance: _Cancel | None = None

    def __new__(cls) -> _Cancel:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "CANCEL"


CANCEL: Final = _Cancel()
"""Returned by a handler (and by ``run_event``) when the event is cancelled."""

HandlerFn = Callable[[Any, dict[str, Any]], Any]
FlowFactory = Callable[["Game", dict[str, Any]], Generator[Any, Any, Any]]
"""A rule's flow at a flow hook: ``fn(game, ctx)`` yields decisions like any step; returning
True claims the moment (what that means is documented with the hook, e.g. skip a step)."""


@dataclass(frozen=True)
class Handler:
    event: str
    effect: str
    """Id of the effect that owns the handler, e.g. ``perk:slick``; logged with its changes."""
    fn: HandlerFn
    priority: int = 0
    """Higher runs first; equal priorities run in registration order."""
    order: int = 0


@dataclass
class EffectRegistry:
    _handlers: dict[str, list[Handler]] = field(default_factory=dict)
    _count: int = 0

    def on(self, event: str, effect: str, fn: HandlerFn, priority: int = 0) -> Handler:
        h = Handler(event, effect, fn, priority, self._count)
        self._count += 1
        hs = self._handlers.setdefault(event, [])
        hs.append(h)
        hs.sort(key=lambda x: (-x.priority, x.order))
        return h

    def remove_effect(self, effect: str) -> int:
        """Remove every handler of ``effect`` (its duration ended); returns how many."""
        n = 0
        for event, hs in list(self._handlers.items()):
            kept = [h for h in hs if h.effect != effect]
            n += len(hs) - len(kept)
            self._handlers[event] = kept
        return n

    def handlers(self, event: str) -> list[Handler]:
        return list(self._handlers.get(event, ()))

    def run_event(self, event: str, value: Any, ctx: dict[str, Any] | None = None) -> Any:
        """Pass ``value`` through the handlers of ``event``; ``CANCEL`` if one cancels it."""
        context = {} if ctx is None else ctx
        for h in self._handlers.get(event, ()):
            out = h.fn(value, context)
            if out is CANCEL:
                return CANCEL
            if out is not None:
                value = out
        return value

    def flows(self, event: str, ctx: dict[str, Any] | None = None) -> list[FlowFactory]:
        """Flow hooks: handlers of ``event`` return the list passed in with their flow
        factories appended (the ``attack_window`` pattern); ``CANCEL`` means no flows."""
        out = self.run_event(event, [], ctx)
        return list(out) if isinstance(out, list) else []


def run_flows(g: Game, event: str, ctx: dict[str, Any]) -> Generator[Any, Any, bool]:
    """Run the flows attached to ``event`` in order with ``yield from`` (each may ask for
    decisions, move vehicles ...). A flow returning True claims the moment: the flows after it
    do not run, and ``run_flows`` returns True."""
    for fn in g.effects.flows(event, ctx):
        if (yield from fn(g, ctx)) is True:
            return True
    return False
