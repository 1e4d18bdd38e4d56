"""Gaslands: Legacy (BLASTER vol.3, "Gaslands: Legacy"; GL ids of the rules inventory).

Our own vehicle generator (``generator``), name generator (``names``), mutation table and
sequence (``mutations``), Vehicle and Team Ratings, the Team Handicap loop and corrosion
(``ratings``), all pure functions of their inputs and deterministic on any machine. The
original leaned on a web app whose tables are not in the text: every table here is ours,
kept as data in ``legacy/data/`` and marked as ours. The Legacy build rules live in
``carnage/team/legacy.py``, the ruleset in ``carnage/rulesets/legacy.py``, its play rules in
``carnage/rules/legacy/``. Nothing is imported here, so the team builder may import
``legacy.catalog`` without a cycle.
"""
