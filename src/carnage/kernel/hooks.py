"""Hook names, declared once with their context fields.

A ruleset declares every hook its flow runs (``run_event``, ``run_flows``) and its effects may
attach to. A hook is a *value* hook (handlers pass a value along), a *flow* hook (handlers
append flows that yield decisions) or a *notice* (the value is ``None``; handlers only react).
Attaching a handler to an undeclared hook, or running one, raises ``UnknownHook`` naming the
closest declared names, so a misspelt hook fails where it is installed, not silently in play.

Families of hooks sharing a prefix (``stat:handling``, ``logged:roll``) are declared once as a
pattern ending in ``*`` (``stat:*``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

HookKind = Literal["value", "flow", "notice"]


class UnknownHook(ValueError):
    """A handler names a hook its ruleset does not declare."""


@dataclass(frozen=True)
class HookSpec:
    name: str
    """The hook's name, or a prefix pattern ending in ``*``."""
    kind: HookKind
    context: tuple[str, ...]
    """The context fields handlers receive (``game`` is always there)."""
    doc: str = ""

    @property
    def pattern(self) -> bool:
        return self.name.endswith("*")


@dataclass(frozen=True)
class HookRegistry:
    """The declared hooks of one ruleset. Immutable: ``extended`` returns a new registry."""

    specs: tuple[HookSpec, ...] = ()
    _exact: dict[str, HookSpec] = field(default_factory=dict, compare=False, repr=False)
    _prefixes: tuple[tuple[str, HookSpec], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        exact: dict[str, HookSpec] = {}
        prefixes: list[tuple[str, HookSpec]] = []
        for s in self.specs:
            if s.pattern:
                prefixes.append((s.name[:-1], s))
            elif s.name in exact:
                raise ValueError(f"hook {s.name!r} is declared twice")
            else:
                exact[s.name] = s
        object.__setattr__(self, "_exact", exact)
        object.__setattr__(self, "_prefixes", tuple(prefixes))

    def extended(self, specs: Iterable[HookSpec]) -> HookRegistry:
        """A registry with ``specs`` added (a ruleset overlay declaring hooks of its own)."""
        return HookRegistry(self.specs + tuple(specs))

    def spec(self, name: str) -> HookSpec:
        """The declaration of ``name``; ``UnknownHook`` (with the nearest names) if none."""
        s = self._exact.get(name)
        if s is not None:
            return s
        for prefix, ps in self._prefixes:
            if name.startswith(prefix):
                return ps
        near = difflib.get_close_matches(name, [*self._exact, *(p for p, _ in self._prefixes)],
                                         n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(repr(n) for n in near)}?)" if near else ""
        raise UnknownHook(f"no hook named {name!r}{hint}")

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        try:
            self.spec(name)
        except UnknownHook:
            return False
        return True

    def __iter__(self) -> Iterator[HookSpec]:
        return iter(self.specs)


def hooks(*rows: tuple[str, HookKind, str, str]) -> tuple[HookSpec, ...]:
    """Hook specs from compact rows: (name, kind, "field field ...", doc)."""
    return tuple(HookSpec(n, k, tuple(c.split()), d) for n, k, c, d in rows)
