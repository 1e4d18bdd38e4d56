"""Hook names, declared once with their context fields.

A ruleset declares every hook its flow runs (``run_event``, ``run_flows``) and its effects may
attach to. A hook is a *value* hook (handlers pass a value along), a *flow* hook (handlers
append flows that yield decisions) or a *notice* (the value is ``None``; handlers only react).
Attaching a handler to an undeclared hook, or running one, raises ``UnknownHook`` naming the
closest declared names, so a misspelt hook fails where it is installed, not silently in play.

Families of hooks sharing a prefix (``stat:handling``, ``logged:roll``) are declared once as a
pattern ending in ``*`` (``stat:*``).

A context field declared with a trailing ``?`` (``forced?``) is optional: the flow passes it only
at some occurrences. When context checking is on (``check_contexts``; the test suite switches it
on, and so does the environment variable ``CARNAGE_CHECK_HOOKS=1``), every ``run_event`` and
``run_flows`` checks its context against the declaration: ``HookContextError`` names the hook
and the field passed but not declared, or declared but missing. Off, the flow pays nothing.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

HookKind = Literal["value", "flow", "notice"]


class UnknownHook(ValueError):
    """A handler names a hook its ruleset does not declare."""


class HookContextError(ValueError):
    """A hook was run with a context its declaration does not allow."""


_checking = os.environ.get("CARNAGE_CHECK_HOOKS", "") not in ("", "0")


def check_contexts(on: bool = True) -> None:
    """Check the context of every hook run from now on (registries made after this call)."""
    global _checking
    _checking = on


def contexts_checked() -> bool:
    """Whether registries made now check hook contexts (``check_contexts``)."""
    return _checking


@dataclass(frozen=True)
class HookSpec:
    name: str
    """The hook's name, or a prefix pattern ending in ``*``."""
    kind: HookKind
    context: tuple[str, ...]
    """The context fields handlers receive (``game`` is always there)."""
    doc: str = ""
    optional: frozenset[str] = frozenset()
    """The fields of ``context`` the flow passes only at some occurrences."""

    @property
    def pattern(self) -> bool:
        return self.name.endswith("*")

    def check(self, event: str, ctx: dict[str, object]) -> None:
        """``HookContextError`` unless ``ctx`` (of a run of ``event``) has ``game``, every
        required field, and no field the hook does not declare."""
        for key in ctx:
            if key != "game" and key not in self.context:
                raise HookContextError(
                    f"hook {event!r} was run with the field {key!r}, which it does not declare "
                    f"(declared: {', '.join(self.context) or 'none'}; add it to the hook's "
                    "declaration, or stop passing it)")
        for key in ("game", *self.context):
            if key not in ctx and key not in self.optional:
                raise HookContextError(
                    f"hook {event!r} was run without its required field {key!r} (mark it "
                    f"optional in the declaration with {key + '?'!r} if the flow passes it "
                    "only sometimes)")


@dataclass(frozen=True)
class HookRegistry:
    """The declared hooks of one ruleset. Immutable: ``extended`` returns a new registry."""

    specs: tuple[HookSpec, ...] = ()
    _exact: dict[str, HookSpec] = field(default_factory=dict, compare=False, repr=False)
    _prefixes: tuple[tuple[str, HookSpec], ...] = field(default=(), compare=False, repr=False)
    _matched: dict[str, HookSpec] = field(default_factory=dict, compare=False, repr=False)
    """Names found through a pattern, remembered (every new game's effects look up the same
    ``logged:<kind>`` and ``stat:<name>`` hooks)."""
    known: set[str] = field(default_factory=set, compare=False, repr=False)
    """Names found declared (exactly or through a pattern), shared by every effect registry of
    these hooks (``EffectRegistry.check``): a new game's effects do not look up again the
    hooks earlier games' effects ran or attached to."""

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
        s = self._exact.get(name) or self._matched.get(name)
        if s is not None:
            return s
        for prefix, ps in self._prefixes:
            if name.startswith(prefix):
                self._matched[name] = ps
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
    """Hook specs from compact rows: (name, kind, "field field? ...", doc); a field ending in
    ``?`` is optional."""
    out = []
    for n, k, c, d in rows:
        names = c.split()
        out.append(HookSpec(n, k, tuple(f.rstrip("?") for f in names), d,
                            frozenset(f[:-1] for f in names if f.endswith("?"))))
    return tuple(out)
