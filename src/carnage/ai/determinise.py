"""Determinisation: the search plays copies of the game in which other seats' secrets are
guesses, never the real values.

A game's secrets (``kernel/secrets.py``) travel with its state, so a clone carries every seat's
hidden values. Before the search plays a copy, ``determinise`` replaces the value of every
secret the searching seat may not see by one sampled from what that seat could know:

* By default, the values of the hidden secrets of one kind are shuffled among the secrets of
  that kind: what the seat knows is which values are still unseen (a dealt hand, delivery
  slips), not who holds which.
* A kind whose values are picked independently (a terrain piece noted in secret) has its own
  sampler (``SAMPLERS``): a uniform pick among the values the rules allow.

The secret's text (its value in words) is rewritten to match the guess. Each copy of the
search draws its own guess from the copy's seed, so the search weighs its choices over many
possible worlds, and the same seed gives the same worlds. Nothing here reads a hidden value
to choose a guess: a sampler sees the secret's kind and key, the state's public parts and the
hidden values only as a pool to shuffle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from carnage.kernel.secrets import Secret

Sampler = Callable[[Any, list[tuple[str, Secret]], random.Random], None]
"""``(game copy, [(key, secret)] hidden from the searching seat, rng)``: give each secret a
guessed value (in place)."""


def _shuffle(game: Any, hidden: list[tuple[str, Secret]], rng: random.Random) -> None:
    """The hidden values of one kind dealt again at random among their holders."""
    pool = [(s.value, s.text) for _, s in hidden]
    rng.shuffle(pool)
    for (_, s), (value, text) in zip(hidden, pool, strict=True):
        s.value, s.text = value, text


def _noted_terrain(game: Any, hidden: list[tuple[str, Secret]], rng: random.Random) -> None:
    """A noted terrain piece: any piece the scenario lets a player note now (Refuelled
    p.141), picked uniformly."""
    notable = getattr(game.scenario, "notable", None)
    pieces = list(notable(game.state)) if callable(notable) else []
    if not pieces:
        _shuffle(game, hidden, rng)
        return
    for _, s in hidden:
        s.value = s.text = rng.choice(pieces)


SAMPLERS: Mapping[str, Sampler] = MappingProxyType({
    "noted_terrain": _noted_terrain,  # The Revolution Will Be Televised (p.141)
})
"""Secret kind -> its sampler; any other kind is shuffled among its hidden holders."""


def hidden_from(game: Any, seat: int) -> dict[str, list[tuple[str, Secret]]]:
    """The secrets ``seat`` may not see, by kind (keys in order)."""
    secrets = getattr(getattr(game, "state", None), "secrets", None)
    out: dict[str, list[tuple[str, Secret]]] = {}
    if not isinstance(secrets, dict):
        return out
    for key in sorted(secrets):
        s = secrets[key]
        if isinstance(s, Secret) and seat not in s.seen_by:
            out.setdefault(s.kind, []).append((key, s))
    return out


def determinise(game: Any, seat: int, rng: random.Random) -> int:
    """Replace, in ``game`` (a copy), the value of every secret ``seat`` may not see by a
    guess (see the module docstring); the number of secrets guessed."""
    n = 0
    for kind, hidden in hidden_from(game, seat).items():
        SAMPLERS.get(kind, _shuffle)(game, hidden, rng)
        n += len(hidden)
    return n


__all__ = ["SAMPLERS", "Sampler", "determinise", "hidden_from"]
