"""Carnage for reinforcement learning: a PettingZoo AEC environment (``carnage.rl.env``).

Needs the ``rl`` extra (``pip install -e '.[rl]'``: pettingzoo and gymnasium). See
``docs/rl.md`` for the observation and the action space.
"""

from carnage.rl.env import CarnageEnv, action_values, env

__all__ = ["CarnageEnv", "action_values", "env"]
