"""Carnage: engine, virtual table and toolbox for Gaslands: Refuelled and its family.

The small public facade::

    import carnage
    g = carnage.new_game(ruleset="refuelled", scenario="street-race", teams=[...], seed=1)
    while (d := g.pending()) is not None:
        g.apply(d.options[0].value)          # or any legal choice
    g.outcome()
    g2 = g.clone()                           # an independent copy at the same decision
    doc = g.snapshot()                       # a versioned JSON document
    g3 = carnage.restore(doc)                # the same game, rebuilt exactly
"""

from __future__ import annotations

from typing import Any

from carnage.compiled import guard as _guard

_guard()  # before any compiled module is imported: a stale build is not used (compiled.py)

__version__ = "0.1.0"


def new_game(ruleset: Any = "refuelled", scenario: str = "street-race",
             teams: Any = (), seed: int | str = 0, **options: Any) -> Any:
    """A started game of ``ruleset`` (a name or a ``Ruleset``) and ``scenario``; ``teams``
    one per player (team files, team-file objects or ``TeamSpec``; none: the scenario's own);
    ``options`` as the ruleset takes them (Refuelled: ``players``, ``max_rounds``,
    ``touch_it_use_it``, ``dice``)."""
    from carnage.rulesets import get_ruleset

    return get_ruleset(ruleset).new_game(scenario=scenario, teams=teams, seed=seed, **options)


def restore(doc: dict[str, Any], rulesets: Any = None) -> Any:
    """The game a ``snapshot()`` document describes, rebuilt exactly (same pending decision,
    same future under the same choices); ``SnapshotError`` naming what is wrong if it cannot."""
    from carnage.kernel.game import SNAPSHOT_VERSIONS, SnapshotError
    from carnage.rulesets import RULESETS

    if not isinstance(doc, dict):
        raise SnapshotError("snapshot: expected a JSON object")
    version = doc.get("carnage_snapshot")
    if type(version) is not int or version not in SNAPSHOT_VERSIONS:  # ``true`` is not 1
        raise SnapshotError(
            f"snapshot: not a carnage snapshot of version "
            f"{' or '.join(map(str, SNAPSHOT_VERSIONS))} "
            f"(carnage_snapshot: {doc.get('carnage_snapshot')!r})")
    known = RULESETS if rulesets is None else rulesets
    name = doc.get("ruleset")
    if not isinstance(name, str) or name not in known:
        raise SnapshotError(f"snapshot: unknown ruleset {name!r} (known: {', '.join(known)})")
    return known[name].restore(doc)


__all__ = ["new_game", "restore"]
