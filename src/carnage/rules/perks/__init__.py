"""The 72 perks of the 12 perk classes (Refuelled pp.104-115), one module per class; each perk
is an installer registered with ``@special_rule("perk", <id>)`` (ids from
catalog/data/perks.yaml)."""

from carnage.rules.perks import (
    aggression,  # noqa: F401
    badass,  # noqa: F401
    built,  # noqa: F401
    daring,  # noqa: F401
    horror,  # noqa: F401
    military,  # noqa: F401
    precision,  # noqa: F401
    pursuit,  # noqa: F401
    reckless,  # noqa: F401
    speed,  # noqa: F401
    technology,  # noqa: F401
    tuning,  # noqa: F401
)
