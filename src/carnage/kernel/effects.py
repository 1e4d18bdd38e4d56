"""Effects on hooks: how special rules plug into the engine without branches in the core.

An effect (a perk, sponsor rule, weapon or vehicle rule, variant) registers handlers for named
events. ``run_event`` passes a value through the handlers in priority order: a handler returns
``None`` to leave the value unchanged, a new value to replace it, or ``CANCEL`` to stop the
event. A handler about one vehicle is attached with ``about=v``: it is called only where the
context's ``vehicle`` (or another ``key``) is ``v``, so rules write no filter of their own.
Modelled on Pokemon Showdown's ``runEvent`` (see shared/design/ARCHITECTURE.md).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from carnage.kernel.hooks import HookRegistry, contexts_checked


class _Cancel:
    _instance: ClassVar[_Cancel | None] = None

    def __new__(cls) -> _Cancel:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "CANCEL"


CANCEL: Final = _Cancel()
"""Returned by a handler (and by ``run_event``) when the event is cancelled."""


class _Anyone:
    _instance: ClassVar[_Anyone | None] = None

    def __new__(cls) -> _Anyone:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ANYONE"


ANYONE: Final = _Anyone()
"""The default ``about`` of a handler: it runs whatever the context's vehicle."""

HandlerFn = Callable[[Any, dict[str, Any]], Any]
FlowFactory = Callable[[Any, dict[str, Any]], Generator[Any, Any, Any]]
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
    about: Any = ANYONE
    """Unless ``ANYONE``, the handler runs only when the context's ``key`` field is this object
    (the vehicle a perk or vehicle rule belongs to; a missing field counts as None): at other
    occurrences it is not called, as if it had returned None."""
    key: str = "vehicle"
    scoped: bool = False
    """``about`` is not ``ANYONE`` (kept as a flag: the check costs one test when unset)."""


Pick = Callable[[dict[str, Any]], "FlowFactory | None"]
"""Chooses the flow (if any) a flow hook runs for a context: see ``EffectRegistry.add_flow``."""


@dataclass
class EffectRegistry:
    hooks: HookRegistry | None = None
    """The ruleset's declared hooks: attaching to or running any other name fails. None (a
    bare registry in kernel tests): any name goes."""
    _handlers: dict[str, list[Handler]] = field(default_factory=dict)
    _count: int = 0
    _known: set[str] = field(default_factory=set)
    guard: Callable[[], bool] | None = None
    """Says whether handlers may be attached now (the game: only in installers and temporary
    scopes, so that every handler can be rebuilt on a copy of the game)."""
    checking: bool = field(default_factory=contexts_checked)
    """Check each run's context against the hook's declaration (``hooks.check_contexts``)."""

    def check(self, event: str) -> None:
        """``UnknownHook`` unless ``event`` is a declared hook."""
        hooks = self.hooks
        if hooks is not None and event not in self._known:
            # the names found declared are the hooks' own, shared by every registry of them
            known = hooks.known
            if event not in known:
                hooks.spec(event)
                known.add(event)
            self._known = known

    def on(self, event: str, effect: str, fn: HandlerFn, priority: int = 0, *,
           about: object = ANYONE, key: str = "vehicle") -> Handler:
        """Attach ``fn`` to ``event`` for ``effect``. ``about``: only where the context's
        ``key`` field (its vehicle) is that object; elsewhere the handler is not called."""
        self.check(event)
        if self.guard is not None and not self.guard():
            raise RuntimeError(
                f"{effect} attached a handler to {event!r} outside an installer: a copy of the "
                "game could not rebuild it (install it through Game.install, or attach it in "
                "a Game.temporary scope)")
        h = Handler(event, effect, fn, priority, self._count, about, key, about is not ANYONE)
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

    def add_flow(self, event: str, effect: str, pick: Pick, priority: int = 0, *,
                 once: bool = False, about: object = ANYONE, key: str = "vehicle") -> None:
        """Attach to the flow hook ``event`` the flow ``pick(ctx)`` returns (None: nothing this
        time). ``once``: not if ``effect`` already has a handler there (a rule reaching the game
        through several vehicles attaches once). ``about``: only where the context's ``key``
        field is that object (see ``on``). The one way rules attach a step to a hook."""
        if once and self.has(event, effect):
            return

        def handler(flows: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
            fn = pick(ctx)
            return None if fn is None else [*flows, fn]

        self.on(event, effect, handler, priority, about=about, key=key)

    def has(self, event: str, effect: str) -> bool:
        """Has ``effect`` a handler on ``event``?"""
        return any(h.effect == effect for h in self._handlers.get(event, ()))

    def handlers(self, event: str) -> list[Handler]:
        return list(self._handlers.get(event, ()))

    def watched(self, event: str) -> bool:
        """Whether any handler is attached to ``event`` (a declared hook)."""
        if self.hooks is not None and event not in self._known:
            self.check(event)
        return bool(self._handlers.get(event))

    def idle(self, event: str) -> bool:
        """Whether running ``event`` now would hand its value back unchanged and check nothing:
        no handler attached and contexts not checked (the name is checked as ``run_event``
        checks it). Hot callers test this first and build no context for an idle hook."""
        hooks = self.hooks
        if hooks is not None and event not in self._known:
            self.check(event)
        return not self._handlers.get(event) and not (self.checking and hooks is not None)

    def run_event(self, event: str, value: Any, ctx: dict[str, Any] | None = None) -> Any:
        """Pass ``value`` through the handlers of ``event``; ``CANCEL`` if one cancels it."""
        context = {} if ctx is None else ctx
        if self.hooks is not None and event not in self._known:
            self.check(event)
        if self.checking and self.hooks is not None:
            self.hooks.spec(event).check(event, context)
        hs = self._handlers.get(event)
        if hs is None:  # (a list, walked as one: compiled, no generic iterator)
            return value
        for h in hs:
            if h.scoped and context.get(h.key) is not h.about:
                continue
            out = h.fn(value, context)
            if out is CANCEL:
                return CANCEL
            if out is not None:
                value = out
        return value

    def due(self, event: str, ctx: dict[str, Any]) -> list[tuple[str, int, FlowFactory]]:
        """The flows handlers of the flow hook ``event`` add for ``ctx``, each with the effect
        and priority of its handler, in running order; none if one cancels."""
        if self.hooks is not None and event not in self._known:
            self.check(event)
        if self.checking and self.hooks is not None:
            self.hooks.spec(event).check(event, ctx)
        flows: list[Any] = []
        out: list[tuple[str, int, FlowFactory]] = []
        hs = self._handlers.get(event)
        if hs is None:
            return out
        for h in hs:
            if h.scoped and ctx.get(h.key) is not h.about:
                continue
            got = h.fn(flows, ctx)
            if got is CANCEL:
                return []
            if isinstance(got, list) and len(got) > len(flows):
                out += [(h.effect, h.priority, f) for f in got[len(flows):]]
                flows = got
        return out

    def flows(self, event: str, ctx: dict[str, Any] | None = None) -> list[FlowFactory]:
        """Flow hooks: handlers of ``event`` return the list passed in with their flow
        factories appended (the ``attack_window`` pattern); ``CANCEL`` means no flows."""
        out = self.run_event(event, [], ctx)
        return list(out) if isinstance(out, list) else []


def run_flows(g: Any, event: str, ctx: dict[str, Any]) -> Generator[Any, Any, bool]:
    """Run the flows attached to ``event`` in order with ``yield from`` (each may ask for
    decisions, move vehicles ...). A flow returning True claims the moment: the flows after it
    do not run, and ``run_flows`` returns True.

    Flows of two or more effects due at the same moment with the same priority are
    simultaneous: the game's ``order_simultaneous`` decides their order (Refuelled p.14: the
    active player chooses), one pick at a time."""
    due = g.effects.due(event, ctx)
    while due:
        group = [d for d in due if d[1] == due[0][1]]
        pick = 0
        if len({eff for eff, _, _ in group}) > 1:
            pick = yield from g.order_simultaneous(event, ctx, [eff for eff, _, _ in group])
        _, _, fn = group[pick]
        due.remove(group[pick])
        if (yield from fn(g, ctx)) is True:
            return True
    return False


def always(fn: FlowFactory) -> Pick:
    """A ``Pick`` running ``fn`` at every occurrence of the hook (narrowed to one vehicle's
    with ``add_flow(..., about=v)``)."""
    return lambda ctx: fn
