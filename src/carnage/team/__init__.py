"""The team builder: team files, strict validation and derived stats (Refuelled pp.63-119).

Public entry points: :func:`load_team` (a file to a :class:`TeamSpec`) and :func:`check_team`
(a spec to a :class:`TeamReport` with every violation and each vehicle's derived stats).
"""

from carnage.team.check import check_team
from carnage.team.io import TeamFileError, load_team, parse_team
from carnage.team.model import (
    Mount,
    TeamSpec,
    UpgradeSpec,
    VehicleSpec,
    WeaponSpec,
)
from carnage.team.report import (
    Category,
    PerkLine,
    TeamReport,
    UpgradeLine,
    VehicleReport,
    Violation,
    WeaponLine,
)

__all__ = [
    "Category",
    "Mount",
    "PerkLine",
    "TeamFileError",
    "TeamReport",
    "TeamSpec",
    "UpgradeLine",
    "UpgradeSpec",
    "VehicleReport",
    "VehicleSpec",
    "Violation",
    "WeaponLine",
    "WeaponSpec",
    "check_team",
    "load_team",
    "parse_team",
]
