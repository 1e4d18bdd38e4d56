"""Every bot by name: Refuelled's own (random, heuristic) and Monte Carlo tree search at
three levels (ai/search.py). ``make_bot(name)`` makes a fresh one."""

from __future__ import annotations

from collections.abc import Callable

from carnage.games.refuelled.ai.bots import BOTS as OWN_BOTS
from carnage.games.refuelled.ai.bots import Bot


def _search(level: str) -> Callable[[], Bot]:
    def make() -> Bot:
        from carnage.ai.search import SearchBot

        return SearchBot(level)

    return make


BOTS: dict[str, Callable[[], Bot]] = {
    **OWN_BOTS,
    # Monte Carlo tree search (ai/search.py); ``search`` is the normal level.
    "search": _search("normal"), "search:easy": _search("easy"),
    "search:normal": _search("normal"), "search:hard": _search("hard"),
}
"""Bot name -> factory."""


def make_bot(name: str) -> Bot:
    """A new bot called ``name``; ``ValueError`` naming the known ones."""
    try:
        return BOTS[name]()
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"unknown bot {name!r} (known: {known})") from None
