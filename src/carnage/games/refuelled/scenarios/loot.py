"""Scavenger Party's loot boxes (Refuelled p.140): a bonus item for each crate picked up.

A D6 picks the item: 1 Nitro Booster, 2 Oil Slick Dropper, 3 Napalm Dropper, 4 turret-mounted
Bazooka, 5 turret-mounted Flamethrower, 6 turret-mounted Rockets, each with Ammo 1. The item
takes no build slots and can never gain ammo; it is lost after its first use, when the vehicle
is Wrecked, and when the game ends.

The five weapons are the catalogue's own: a loot weapon is a ``WeaponMount`` keyed
``<weapon>#loot<n>`` added to the vehicle, and its rules are installed through the ruleset like
any weapon's (``Game.install_rule``, journaled, once per vehicle and rule). The Nitro Booster is
played here (the upgrade's own installer counts the vehicle's fitted boosters when it is
installed, so a booster arriving mid-game is kept apart from them): at the start of the Movement
Step the controller may fire it, exactly as the upgrade does (p.84). Every item is listed in
``state.scenario["loot"]``. Rulings SCV-5 to SCV-8 in docs/rulings.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import WeaponMount

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState

PAGE = 140
SOURCE = "loot_box"
KEY = "loot"
NITRO = "nitro_booster"
LOOT_TABLE: dict[int, tuple[str, str | None]] = {
    1: (NITRO, None),
    2: ("oil_slick_dropper", "rear"),
    3: ("napalm_dropper", "rear"),
    4: ("bazooka", "turret"),
    5: ("flamethrower", "turret"),
    6: ("rockets", "turret"),
}
"""D6 -> (catalogue id, facing). The droppers' facing is not given: rear (ruling SCV-6)."""
YES, NO = "yes", "no"


def loot(state: GameState) -> dict[str, Any]:
    """The loot boxes' memory: ``n`` (items handed out so far), ``items`` (those held now:
    ``key``, ``item``, ``vehicle``, ``ammo``, ``used``), ``boosting`` (vehicles whose loot
    Nitro fired in this Movement Step)."""
    memo: dict[str, Any] = state.scenario.setdefault(KEY, {})
    memo.setdefault("n", 0)
    memo.setdefault("items", [])
    memo.setdefault("boosting", [])
    return memo


def held(state: GameState, vehicle: str) -> list[dict[str, Any]]:
    """The loot items ``vehicle`` holds now."""
    return [i for i in loot(state)["items"] if i["vehicle"] == vehicle]


def is_loot_key(key: str) -> bool:
    return "#loot" in key


def grant(game: Game, v: VehicleState, die: int) -> str:
    """Give ``v`` the item a loot-box roll of ``die`` names; returns the item's key."""
    if die not in LOOT_TABLE:
        raise ValueError(f"a loot box is rolled on a D6 (1-6), not {die}")
    item, facing = LOOT_TABLE[die]
    memo = loot(game.state)
    memo["n"] += 1
    key = f"{item}#loot{memo['n']}"
    memo["items"].append({"key": key, "item": item, "vehicle": v.id, "ammo": 1, "used": False})
    if item != NITRO:
        v.weapons.append(WeaponMount(key, item, facing, 1))
        # The weapon's rules, as a team file would have brought them (deduplicated by the
        # journal: a vehicle already carrying the weapon keeps its handlers).
        game.install_rule("weapon", item, v)
        for rid in game.catalog.weapons.get(item).special_rules:
            game.install_rule("weapon_rule", rid, v)
    name = game.catalog.weapons.get(item).name if item != NITRO else "Nitro Booster"
    game.emit("loot_box", source=SOURCE, page=PAGE, vehicle=v.id, player=v.player, die=die,
              item=item, key=key, facing=facing, name=name)
    return key


def lose(game: Game, key: str, reason: str) -> None:
    """The item ``key`` leaves its vehicle (used, Wrecked, the game ended)."""
    memo = loot(game.state)
    for it in list(memo["items"]):
        if it["key"] != key:
            continue
        memo["items"].remove(it)
        v = game.state.vehicles.get(it["vehicle"])
        if v is not None:
            v.weapons = [m for m in v.weapons if m.key != key]
        game.emit("loot_lost", source=SOURCE, page=PAGE, vehicle=it["vehicle"], key=key,
                  item=it["item"], reason=reason)


def install_loot(game: Game, effect: str) -> None:
    """Attach the loot items' rules (call from the scenario's installer)."""
    from carnage.games.refuelled.engine.movement import forced_move
    from carnage.games.refuelled.rules.upgrades import top_up_hazards

    def ammo(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        data = ctx["data"]
        key = str(data.get("weapon", ""))
        if not is_loot_key(key):
            return
        for it in loot(g.state)["items"]:
            if it["key"] != key:
                continue
            v = g.state.vehicles.get(it["vehicle"])
            mount = next((m for m in (v.weapons if v else []) if m.key == key), None)
            left = int(data.get("ammo", 0))
            if left > 1 and mount is not None:
                # It may not gain ammo by any means (p.140): a Reload or a sponsor's gift is
                # taken back at once (ruling SCV-7).
                mount.ammo = 1
                g.emit("loot_no_ammo", source=SOURCE, page=PAGE, vehicle=it["vehicle"],
                       key=key, ammo=1)
            elif left <= 0:
                it["used"] = True
                it["ammo"] = 0

    def wrecked(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        vid = str(ctx["data"].get("vehicle"))
        for it in held(g.state, vid):
            lose(g, it["key"], "wrecked")

    def over(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        for it in list(loot(g.state)["items"]):
            lose(g, it["key"], "the game ended")

    def step_end(g: Game, ctx: dict[str, Any]) -> Flow:
        for it in list(loot(g.state)["items"]):
            if it["used"]:
                lose(g, it["key"], "used")
        yield from ()

    def boost(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        memo = loot(g.state)
        memo["boosting"] = [b for b in memo["boosting"] if b != v.id]
        nitro = next((it for it in held(g.state, v.id)
                      if it["item"] == NITRO and not it["used"]), None)
        if nitro is None:
            return
        use = yield ask(v.player, "loot_nitro", f"{v.name}: fire the loot Nitro Booster?",
                        [(YES, "fire it: Long Straight now, Hazards up to 5 (then it is gone)"),
                         (NO, "keep it for later")], source=SOURCE, page=84, vehicle=v.id,
                        weapon=nitro["key"])
        if use != YES:
            return
        nitro["used"], nitro["ammo"] = True, 0
        g.emit("ammo", source="ammo", page=81, vehicle=v.id, weapon=nitro["key"], ammo=0)
        memo["boosting"].append(v.id)
        g.emit("nitro", source=SOURCE, page=84, vehicle=v.id)
        yield from forced_move(g, v, "long_straight", source=SOURCE, page=84)
        if v.in_play and not g.state.finished:
            top_up_hazards(g, v, SOURCE)

    def after(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        memo = loot(g.state)
        if v.id in memo["boosting"]:
            memo["boosting"].remove(v.id)
            top_up_hazards(g, v, SOURCE)
        yield from ()

    def no_reverse(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        return False if v is not None and v.id in loot(ctx["game"].state)["boosting"] else None

    game.effects.on("logged:ammo", effect, ammo)
    game.effects.on("logged:wrecked", effect, wrecked)
    game.effects.on("logged:game_over", effect, over)
    game.effects.add_flow("step_end", effect, lambda ctx: step_end, priority=-60)
    game.effects.add_flow("movement_start", effect, lambda ctx: boost)
    game.effects.add_flow("movement_end", effect, lambda ctx: after, priority=10)
    game.effects.on("may_reverse", effect, no_reverse)
