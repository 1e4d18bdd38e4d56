"""The Riggers' War Rig in Savage Highways (Refuelled p.167): its five War Rig Upgrades, Unlikely
Stamina and Plot Immunity.

* **War Rig Upgrades** (SH-04 to SH-09). Any number may be attached, never two of the same,
  using no build slots (they are not team items: the scenario attaches them from its
  ``upgrades`` option or a set-up decision). Each has an effect and a trigger that discards it:

  - *Hangers On*: Crew +4 (``stat:crew``). Discarded when the rig is in its second resolved
    Collision of one activation (whoever is active: ruling SH-R3).
  - *Selvaggio*: once per round, lose 1 Hull Point to discard every Hazard (offered as the
    rig's Wipeout Step begins, when it has Hazards: ruling SH-R4). Discarded when the rig is
    the target of its second shooting attack declared without cover in one Gear Phase (the
    doubled phrase of the text read once: SH-R4).
  - *Fuel Pod*: once per Gear Phase, after the rig's skid dice are rolled, discard one of them
    (not a Shift, nor a die that must be resolved) or re-roll one. Discarded when an enemy
    vehicle's tailgate Smash Attack on the rig has no dice (0 after every modifier: SH-R5).
  - *Grease Monkey*: once per Gear Phase, when the rig's evade roll against an attack (a shot,
    a Smash Attack, any hits it may evade) cancels at least one hit, it regains 1 lost Hull
    Point at once (SH-R6). Discarded when the rig gains a Hazard through Blast.
  - *Cow Catcher*: once per round, in a Collision of the rig with a terrain piece that is not
    Destructible during the rig's own activation, its controller may treat that piece as
    Destructible (it is removed once the Collision is resolved, p.54). Discarded after a
    Head-on Collision between the rig and a Ganger vehicle.

  Only one upgrade may be removed in one activation, by any means (SH-04): a second trigger in
  the same activation leaves its upgrade attached (ruling SH-R7). Removals are logged
  (``war_rig_upgrade_lost``) and kept in the memory for the campaign's ledger.
* **Unlikely Stamina** (SH-11): while any upgrade is attached the rig is not Wrecked, even on
  0 Hull Points (the ``wreck`` flow hook claims the wreck sequence). Once it has no Hull
  Points and no upgrade it is Wrecked at once: the check runs at the end of every collision,
  hit, attack and step in which an upgrade may have gone (ruling SH-R8).
* **Plot Immunity** (SH-12): the Death Ray's hits do nothing to the rig (ruling SH-R9: they
  are set aside before the Death Ray or the damage reads them).

Memory: ``state.scenario["war_rig"]``: ``rig`` (its vehicle id), ``attached`` (ids, in the
order attached), ``removed`` (records ``{upgrade, reason, round, phase}``), and the counters
the triggers and once-per limits need.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import VehicleState, body_owner
from carnage.kernel.dice import SkidFace, skid_face

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.collision import Party
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.skid import SkidResolution
    from carnage.kernel.decisions import Decision

PAGE = 167
EFFECT = "war_rig_upgrades"
KEY = "war_rig"


@dataclass(frozen=True)
class RigUpgrade:
    id: str
    name: str
    effect: str
    """What it does, in our words."""
    loses_it: str
    """What discards it, in our words."""


UPGRADES: dict[str, RigUpgrade] = {u.id: u for u in (
    RigUpgrade("hangers_on", "Hangers On", "Crew +4",
               "two or more Collisions in one activation"),
    RigUpgrade("selvaggio", "Selvaggio", "once per round: lose 1 Hull Point to discard "
               "every Hazard", "targeted by two uncovered shooting attacks in one Gear Phase"),
    RigUpgrade("fuel_pod", "Fuel Pod", "once per Gear Phase: discard or re-roll one Skid Die",
               "an enemy's tailgate Smash Attack with no dice"),
    RigUpgrade("grease_monkey", "Grease Monkey", "once per Gear Phase: a hit evaded in an "
               "attack gives back 1 lost Hull Point", "a Hazard gained through Blast"),
    RigUpgrade("cow_catcher", "Cow Catcher", "once per round: treat one terrain piece as "
               "Destructible in its activation", "a Head-on Collision with a Ganger vehicle"),
)}
"""The five War Rig Upgrades (p.167), in the book's order."""

HANGERS_ON_CREW = 4
YES, NO = "yes", "no"


class UpgradeError(ValueError):
    """A list of War Rig Upgrades that cannot be attached (unknown id, a repeat)."""


def check_upgrades(ids: Iterable[object], where: str = "upgrades") -> list[str]:
    """``ids`` as a list of known upgrade ids, each at most once (SH-04); ``UpgradeError``
    naming the first problem."""
    out: list[str] = []
    for raw in ids:
        uid = str(raw).strip().lower().replace("-", "_").replace(" ", "_")
        if uid not in UPGRADES:
            raise UpgradeError(f"{where}: {raw!r} is not a War Rig Upgrade (known: "
                               f"{', '.join(UPGRADES)})")
        if uid in out:
            raise UpgradeError(f"{where}: {UPGRADES[uid].name} is listed twice; a War Rig "
                               "has at most one of each (p.167)")
        out.append(uid)
    return out


# -- memory -----------------------------------------------------------------------------------
def memory(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = game.state.scenario.setdefault(KEY, {
        "rig": None, "attached": [], "removed": [], "removed_in": None, "used": {},
        "collisions": {}, "uncovered": {}, "cow_catcher": {},
    })
    return out


def rig_of(game: Game) -> VehicleState | None:
    vid = memory(game)["rig"]
    return None if vid is None else game.state.vehicles.get(str(vid))


def attached(game: Game) -> list[str]:
    return list(memory(game)["attached"])


def has(game: Game, uid: str) -> bool:
    return uid in memory(game)["attached"]


def attach(game: Game, uid: str, *, by: int | None = None, why: str = "") -> None:
    """Attach upgrade ``uid`` (never a second of the same, SH-04)."""
    mem = memory(game)
    if uid not in UPGRADES:
        raise UpgradeError(f"{uid!r} is not a War Rig Upgrade")
    if uid in mem["attached"]:
        raise UpgradeError(f"the War Rig has {UPGRADES[uid].name} already")
    mem["attached"].append(uid)
    game.emit("war_rig_upgrade", source=EFFECT, page=PAGE, vehicle=mem["rig"], upgrade=uid,
              name=UPGRADES[uid].name, player=by, why=why)


def _activation(game: Game) -> int:
    return game.count("activation")


def remove(game: Game, uid: str, reason: str) -> bool:
    """Discard ``uid`` (its trigger fired): False, and it stays, if it is not attached or an
    upgrade was removed in this activation already (SH-04; ruling SH-R7)."""
    mem = memory(game)
    if uid not in mem["attached"]:
        return False
    now = _activation(game)
    if mem["removed_in"] == now:
        game.emit("war_rig_upgrade_kept", source=EFFECT, page=PAGE, vehicle=mem["rig"],
                  upgrade=uid, reason=reason,
                  why="only one upgrade may be removed in one activation")
        return False
    mem["attached"].remove(uid)
    mem["removed_in"] = now
    st = game.state
    mem["removed"].append({"upgrade": uid, "reason": reason, "round": st.round,
                           "phase": st.gear_phase})
    game.emit("war_rig_upgrade_lost", source=EFFECT, page=PAGE, vehicle=mem["rig"],
              upgrade=uid, name=UPGRADES[uid].name, reason=reason,
              left=list(mem["attached"]))
    return True


def _once(game: Game, uid: str, per: str) -> bool:
    """Is ``uid``'s once-per-``per`` use (``round`` or ``phase``) still free?"""
    st = game.state
    stamp = st.round if per == "round" else st.round * 10 + st.gear_phase
    return bool(memory(game)["used"].get(uid) != stamp)


def _use(game: Game, uid: str, per: str) -> None:
    st = game.state
    memory(game)["used"][uid] = st.round if per == "round" else st.round * 10 + st.gear_phase


def _is_rig(game: Game, v: object) -> bool:
    rig = rig_of(game)
    return rig is not None and isinstance(v, VehicleState) and v.id == rig.id


def _enemy_of_rig(game: Game, v: VehicleState | None) -> bool:
    rig = rig_of(game)
    if rig is None or v is None or v.id == rig.id:
        return False
    out = game.effects.run_event("allies", frozenset({rig.player}),
                                 {"game": game, "player": rig.player})
    side = out if isinstance(out, frozenset | set) else frozenset({rig.player})
    return v.player not in side


def _rig_party(game: Game, parties: Sequence[Party]) -> tuple[Party | None, Party | None]:
    """(the rig's party, the other party) of a Collision, or (None, None)."""
    rig = rig_of(game)
    if rig is None or len(parties) != 2:
        return None, None
    for p, other in ((parties[0], parties[1]), (parties[1], parties[0])):
        if p.vehicle is not None and p.vehicle.id == rig.id:
            return p, other
    return None, None


# -- Unlikely Stamina ---------------------------------------------------------------------------
def stamina_check(game: Game) -> Flow:
    """SH-11: a rig on 0 Hull Points with no upgrade left is Wrecked at once."""
    from carnage.games.refuelled.engine.damage import wreck

    rig = rig_of(game)
    if (rig is not None and rig.in_play and rig.hull_points == 0 and not attached(game)
            and not game.state.finished and not memory(game).get("wrecking")):
        game.emit("unlikely_stamina", source="unlikely_stamina", page=PAGE, vehicle=rig.id,
                  held=False, why="no Hull Points and no War Rig Upgrade left")
        yield from wreck(game, rig)


def _stamina_flow(game: Game, ctx: dict[str, Any]) -> Flow:
    yield from stamina_check(game)


def _stamina_pick(ctx: dict[str, Any]) -> Any:
    game: Game = ctx["game"]
    rig = rig_of(game)
    if (rig is not None and rig.in_play and rig.hull_points == 0 and not attached(game)
            and not memory(game).get("wrecking")):
        return _stamina_flow
    return None


def _hold_wreck(game: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
    """While any upgrade is attached, the wreck sequence does not happen (claimed)."""
    rig = rig_of(game)
    assert rig is not None
    game.emit("unlikely_stamina", source="unlikely_stamina", page=PAGE, vehicle=rig.id,
              held=True, upgrades=attached(game))
    yield from ()
    return True


# -- installing ---------------------------------------------------------------------------------
def install(game: Game, rig_id: str) -> None:
    """Every War Rig Upgrade's effect and trigger, Unlikely Stamina and Plot Immunity for the
    rig ``rig_id`` (call from a scenario's ``install``; which upgrades are attached is memory,
    so upgrades come and go without handlers changing)."""
    memory(game)["rig"] = rig_id
    fx = game.effects

    # Hangers On: Crew +4.
    def crew(value: Any, ctx: dict[str, Any]) -> Any:
        if _is_rig(game, ctx.get("vehicle")) and has(game, "hangers_on"):
            return int(value) + HANGERS_ON_CREW
        return None

    fx.on("stat:crew", EFFECT, crew)

    # Collisions: Hangers On's count, Cow Catcher's Head-on trigger.
    def collided(g: Game, ctx: dict[str, Any]) -> Flow:
        mine, other = _rig_party(g, ctx.get("parties", ()))
        if mine is not None and other is not None:
            mem = memory(g)
            key = str(_activation(g))
            n = int(mem["collisions"].get(key, 0)) + 1
            mem["collisions"] = {key: n}
            if n >= 2 and has(g, "hangers_on"):
                remove(g, "hangers_on", "two Collisions in one activation")
            if (ctx.get("orientation") == "head_on" and other.vehicle is not None
                    and _enemy_of_rig(g, other.vehicle) and has(g, "cow_catcher")):
                remove(g, "cow_catcher", f"a Head-on Collision with {other.vehicle.name}")
        yield from stamina_check(g)

    fx.add_flow("collision_end", EFFECT, lambda ctx: collided, -50)

    # Cow Catcher: a terrain piece treated as Destructible in the rig's activation.
    def cow_catcher(g: Game, ctx: dict[str, Any]) -> Flow:
        mine, other = _rig_party(g, ctx.get("parties", ()))
        rig = rig_of(g)
        ob = None if other is None else other.obstacle
        if (mine is None or ob is None or rig is None or ob.destructible
                or ob.wreck_of is not None or g.state.active != rig.id
                or not has(g, "cow_catcher") or not _once(g, "cow_catcher", "round")):
            return
        pick = yield ask(rig.player, "cow_catcher",
                         f"{rig.name}: Cow Catcher: treat {ob.id.replace('-', ' ')} as "
                         "Destructible (once this round)?",
                         [(YES, "smash through it"), (NO, "not now")], source="cow_catcher",
                         page=PAGE, vehicle=rig.id, target=ob.id)
        if pick == YES:
            _use(g, "cow_catcher", "round")
            ob.destructible = True
            g.emit("cow_catcher", source="cow_catcher", page=PAGE, vehicle=rig.id,
                   obstacle=ob.id)

    fx.add_flow("collision_start", EFFECT, lambda ctx: cow_catcher)

    # Selvaggio: its use, and two uncovered shots in one Gear Phase.
    def selvaggio(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.engine.damage import suffer_damage

        rig = rig_of(g)
        if (rig is None or not _is_rig(g, ctx.get("vehicle")) or not rig.in_play
                or rig.hazards <= 0 or rig.hull_points < 1 or not has(g, "selvaggio")
                or not _once(g, "selvaggio", "round")):
            return
        pick = yield ask(rig.player, "selvaggio",
                         f"{rig.name}: Selvaggio: lose 1 Hull Point to discard its "
                         f"{rig.hazards} Hazard Tokens (once this round)?",
                         [(YES, "lose 1 Hull Point, discard every Hazard"), (NO, "not now")],
                         source="selvaggio", page=PAGE, vehicle=rig.id)
        if pick != YES:
            return
        _use(g, "selvaggio", "round")
        g.emit("selvaggio", source="selvaggio", page=PAGE, vehicle=rig.id,
               hazards=rig.hazards)
        g.add_hazards(rig, -rig.hazards, "selvaggio", PAGE)
        yield from suffer_damage(g, rig, 1, source="selvaggio", page=PAGE)

    fx.add_flow("wipeout_step_start", EFFECT, lambda ctx: selvaggio)

    def declared(value: Any, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        target, template = data.get("target"), data.get("template")
        rig = rig_of(game)
        if rig is None or target is None or template is None:
            return  # not a shooting attack on a target (a drop, a Wrecking Ball ...)
        if body_owner(str(target)) != rig.id or data.get("cover"):
            return
        st = game.state
        mem = memory(game)
        key = f"{st.round}:{st.gear_phase}"
        n = int(mem["uncovered"].get(key, 0)) + 1
        mem["uncovered"] = {key: n}
        if n >= 2 and has(game, "selvaggio"):
            remove(game, "selvaggio", "two uncovered shooting attacks in one Gear Phase")

    fx.on("logged:declare_attack", EFFECT, declared)

    # Fuel Pod: discard or re-roll a skid die; a dice-less tailgate smash.
    def fuel_pod(g: Game, ctx: dict[str, Any]) -> Flow:
        sk: SkidResolution = ctx["sk"]
        rig = rig_of(g)
        if (rig is None or not _is_rig(g, ctx.get("vehicle")) or not sk.rolled or not sk.faces
                or not has(g, "fuel_pod") or not _once(g, "fuel_pod", "phase")):
            return
        opts: list[tuple[str | int, str]] = [(NO, "not now")]
        for i, f in enumerate(sk.faces):
            if f is not SkidFace.SHIFT and i not in sk.locked and i not in sk.cancelled:
                opts.append((f"discard:{i}", f"discard die {i + 1} ({f.value})"))
        for i, f in enumerate(sk.faces):
            if i not in sk.cancelled:
                opts.append((f"reroll:{i}", f"re-roll die {i + 1} ({f.value})"))
        pick = str((yield ask(rig.player, "fuel_pod",
                              f"{rig.name}: Fuel Pod: discard or re-roll one skid die "
                              "(once this Gear Phase)?", opts, source="fuel_pod", page=PAGE,
                              vehicle=rig.id)))
        if pick == NO:
            return
        _use(g, "fuel_pod", "phase")
        how, _, idx = pick.partition(":")
        i = int(idx)
        if how == "discard":
            sk.cancelled.add(i)
            g.emit("fuel_pod", source="fuel_pod", page=PAGE, vehicle=rig.id, die=i,
                   discarded=sk.faces[i].value)
        else:
            before = sk.faces[i]
            sk.faces[i] = skid_face(g.roll(1, "skid dice", source="fuel_pod", page=PAGE,
                                           vehicle=rig.id)[0])
            g.emit("fuel_pod", source="fuel_pod", page=PAGE, vehicle=rig.id, die=i,
                   rerolled=before.value, now=sk.faces[i].value)

    fx.add_flow("skid_rolled", EFFECT, lambda ctx: fuel_pod, 10)

    def smash(g: Game, ctx: dict[str, Any]) -> Flow:
        smasher, target = ctx.get("vehicle"), ctx.get("other")
        if (ctx.get("orientation") == "tailgate" and isinstance(ctx.get("dice"), int)
                and int(ctx["dice"]) <= 0 and isinstance(smasher, VehicleState)
                and _is_rig(g, target) and _enemy_of_rig(g, smasher)
                and has(g, "fuel_pod")):
            remove(g, "fuel_pod", f"{smasher.name}'s tailgate Smash Attack had no dice")
        yield from ()

    fx.add_flow("smash_roll", EFFECT, lambda ctx: smash, -100)

    # Grease Monkey: an evaded hit; a Blast Hazard.
    def evaded(value: Any, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        rig = rig_of(game)
        if (rig is None or body_owner(str(data.get("vehicle"))) != rig.id
                or int(data.get("cancelled") or 0) < 1 or not has(game, "grease_monkey")
                or rig.damage <= 0 or not rig.in_play or not _once(game, "grease_monkey",
                                                                    "phase")):
            return
        _use(game, "grease_monkey", "phase")
        rig.damage -= 1
        game.emit("repair", source="grease_monkey", page=PAGE, vehicle=rig.id, amount=1,
                  hull_points=rig.hull_points)

    fx.on("logged:evade", EFFECT, evaded)

    def blast(value: Any, ctx: dict[str, Any]) -> None:
        if (ctx.get("source") == "blast" and _is_rig(game, ctx.get("vehicle"))
                and isinstance(value, int) and value > 0 and has(game, "grease_monkey")):
            remove(game, "grease_monkey", "a Hazard gained through Blast")

    fx.on("hazards_gained", EFFECT, blast, -100)

    # Unlikely Stamina.
    def hold(ctx: dict[str, Any]) -> Any:
        return _hold_wreck if _is_rig(game, ctx.get("vehicle")) and attached(game) else None

    fx.add_flow("wreck", EFFECT, hold, 100)

    def wrecking(value: Any, ctx: dict[str, Any]) -> None:
        """While its wreck sequence runs (it skids to a halt) the rig is not wrecked again."""
        rig = rig_of(game)
        if rig is not None and ctx["data"].get("vehicle") == rig.id:
            memory(game)["wrecking"] = ctx["data"].get("how") is None

    fx.on("logged:wrecked", EFFECT, wrecking)
    fx.on("logged:respawn", EFFECT, wrecking)
    for hook in ("hits_resolved", "after_attack", "step_end", "movement_end", "attack_end",
                 "move_window"):
        fx.add_flow(hook, f"{EFFECT}:stamina", _stamina_pick, -100)

    # Plot Immunity: Death Ray hits do nothing to the rig.
    def immune(value: Any, ctx: dict[str, Any]) -> None:
        if not _is_rig(game, ctx.get("target")):
            return
        rays = [grp for grp in ctx.get("groups", ()) if "death_ray" in grp.on_hit]
        if any(grp.uncancelled for grp in rays):
            rig = rig_of(game)
            assert rig is not None
            game.emit("plot_immunity", source="plot_immunity", page=PAGE, vehicle=rig.id,
                      hits=sum(grp.uncancelled for grp in rays))
        for grp in rays:
            grp.uncancelled = 0

    fx.on("hits_taken", EFFECT, immune, 100)


# -- bots ------------------------------------------------------------------------------------
RIGGER_PREFERENCE = ("grease_monkey", "hangers_on", "selvaggio", "fuel_pod", "cow_catcher")
"""The heuristic bot's order of choice for the Riggers (most useful first)."""
GANGER_PREFERENCE = tuple(reversed(RIGGER_PREFERENCE))
"""... and for the Gangers choosing one for the rig (Rescue): the least useful first."""


def bot_choice(game: Game, decision: Decision) -> Any:
    """Heuristic answers to the upgrades' decisions (None: not one of them)."""
    rig = rig_of(game)
    values = [o.value for o in decision.options]
    if rig is None or not values:
        return None
    if decision.kind == "selvaggio":
        return YES if rig.hazards >= 4 and rig.hull_points >= 3 else NO
    if decision.kind == "cow_catcher":
        return YES
    if decision.kind == "fuel_pod":
        labels = {str(o.value): o.label for o in decision.options}
        for face in ("slide", "spin", "hazard"):
            for v in values:
                if str(v).startswith("discard:") and labels[str(v)].endswith(f"({face})"):
                    return v
        return NO
    return None

