"""Gaslands: Legacy (BLASTER vol.3, "Gaslands: Legacy"; GL ids of the rules inventory).

Our own vehicle generator (``generator``), name generator (``names``), mutation table and
sequence (``mutations``), Vehicle and Team Ratings, the Team Handicap loop and corrosion
(``ratings``), all pure functions of their inputs and deterministic on any machine. The
original leaned on a web app whose tables are not in the text: every table here is ours,
kept as data in ``data/`` and marked as ours. The Legacy build rules live in ``team.py``,
the ruleset in ``ruleset.py``, its play rules in ``rules/``. Importing the package registers
the Legacy vehicle section and build mode with the team builder (``team.py``), so every
entry point that loads the games (``carnage.rulesets``) reads a vehicle's ``legacy`` section.
"""

from carnage.games.legacy import team as _team  # noqa: F401  (registers the vehicle section)
from carnage.kernel.codec import module_renamed

# Where Legacy's modules lived before each game became one package (old snapshots).
for _old, _new in (("carnage.legacy", "carnage.games.legacy"),
                   ("carnage.rules.legacy", "carnage.games.legacy.rules"),
                   ("carnage.team.legacy", "carnage.games.legacy.team"),
                   ("carnage.rulesets.legacy", "carnage.games.legacy.ruleset"),
                   ("carnage.campaign.legacy", "carnage.games.legacy.campaign")):
    module_renamed(_old, _new)
