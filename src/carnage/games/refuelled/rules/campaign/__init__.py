"""Campaign wear in play (Refuelled pp.159-163): what a Televised Season hands a game.

``install_campaign`` (called by ``rulesets.setup.build_game`` before the game starts) reads
each vehicle's career (``VehicleReport.career``) and the setup's ``pregame`` (handicap votes,
Sabotage Tokens, Resistance Points) and puts them into play:

* ``injuries.py``: the injuries of p.163 and the wear of p.162 (Weakened chassis, Audience
  Favourite) as effects on hooks, one journaled installer for the whole game;
* ``sabotage.py``: the four Sabotage Tokens of p.160, secret per seat, and the loss of
  Audience Votes after a player's first token;
* ``pregame.py``: the moments before the first decision (Old War Wound's roll, Twitch's
  announcement, handicap votes, the secrets).

Crew and Hull lost for good are already in the derived stats of the team builder
(team/career.py). ``RULES`` holds the journaled installers; the Refuelled ruleset composes it.
"""

from carnage.games.refuelled.rules.campaign.injuries import RULES as _INJURY_RULES
from carnage.games.refuelled.rules.campaign.pregame import install_campaign
from carnage.games.refuelled.rules.campaign.sabotage import RULES as _SABOTAGE_RULES
from carnage.kernel.rules import RuleTable

RULES = RuleTable.merged([_INJURY_RULES, _SABOTAGE_RULES])

__all__ = ["RULES", "install_campaign"]
