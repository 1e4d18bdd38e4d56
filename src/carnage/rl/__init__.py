"""Carnage for reinforcement learning: a PettingZoo AEC environment (``carnage.rl.env``) of
any ruleset that declares an observation (``Ruleset.observation``).

Needs the ``rl`` extra (``pip install -e '.[rl]'``: pettingzoo and gymnasium). See
``docs/rl.md`` for the observations and the action space.
"""

from carnage.rl.env import CarnageEnv, action_values, env

__all__ = ["CarnageEnv", "action_values", "env"]
