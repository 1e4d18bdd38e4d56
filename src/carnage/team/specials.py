"""Vehicle special rules and perks that act at team-building time, registered by their ids."""

from __future__ import annotations

from carnage.team.context import FittedWeapon, Stats, TeamBuild, VehicleBuild
from carnage.team.effects import BuildEffect, perk_rule, vehicle_rule
from carnage.team.report import Category


def _free_turret(v: VehicleBuild) -> FittedWeapon | None:
    """The turret-mounted weapon the Tank gets for free: the dearest one, first listed on ties."""
    turrets = [w for w in v.weapons if w.turret]
    if not turrets:
        return None
    return max(turrets, key=lambda w: (w.weapon.cost, -w.index))


@vehicle_rule
class Turret(BuildEffect):
    """Tank (p.71): one weapon counts as turret-mounted without paying for the mounting."""

    id = "turret"
    title = "Turret"
    page = 71
    category = Category.BUILD

    def weapon_cost(self, team: TeamBuild, v: VehicleBuild, w: FittedWeapon, cost: int) -> int:
        return w.weapon.cost if w is _free_turret(v) else cost


@vehicle_rule
class BombsAway(BuildEffect):
    """Helicopter and Gyrocopter (p.70): dropped weapons may take no build slots."""

    id = "bombs_away"
    title = "Bombs Away"
    page = 70
    category = Category.BUILD

    def weapon_slots(self, team: TeamBuild, v: VehicleBuild, w: FittedWeapon, slots: int) -> int:
        return 0 if w.dropped else slots


@perk_rule
class Expertise(BuildEffect):
    """Expertise (p.110): +1 Handling."""

    id = "expertise"
    title = "Expertise"
    page = 110
    category = Category.BUILD

    def stats(self, team: TeamBuild, v: VehicleBuild, s: Stats) -> Stats:
        return s.plus(handling=1)
