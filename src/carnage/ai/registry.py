"""Bots by name for the default ruleset (``carnage.rulesets.DEFAULT_RULESET``): the bots it
declares (``Ruleset.bots``) and the search bot at three levels (ai/search.py), as
``ai/runner.py`` ``make_bot_for`` makes them. ``make_bot(name)`` makes a fresh one; another
ruleset's bots: ``make_bot(name, ruleset)`` or ``make_bot_for``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from carnage.ai.runner import SEARCH, make_bot_for
from carnage.kernel.campaign_modes import LazyMapping
from carnage.kernel.contract import Bot
from carnage.kernel.ruleset import Ruleset


def _default_ruleset() -> Ruleset:
    from carnage.rulesets import DEFAULT_RULESET, get_ruleset

    return get_ruleset(DEFAULT_RULESET)


def bots_of(ruleset: Ruleset) -> dict[str, Callable[[], Bot]]:
    """Bot name -> factory: ``ruleset``'s own bots, then the search bot's levels."""
    names = [*ruleset.bots, *(s for s in SEARCH if s not in ruleset.bots)]
    return {n: partial(make_bot_for, ruleset, n) for n in names}


BOTS: Mapping[str, Callable[[], Bot]] = LazyMapping(lambda: bots_of(_default_ruleset()))
"""Bot name -> factory, for the default ruleset (read from the registry on first use)."""


def make_bot(name: str, ruleset: Ruleset | None = None) -> Bot:
    """A new bot called ``name`` of ``ruleset`` (default: the default ruleset);
    ``ValueError`` naming the known ones."""
    rs = ruleset if ruleset is not None else _default_ruleset()
    known = bots_of(rs)
    if name not in known:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(known))})")
    return known[name]()
