"""The game-agnostic kernel: decisions, dice, the event log, effects on hooks and the driver.

Nothing here knows a rule of any game; rulesets (``carnage.rulesets``) build games on it.
"""
