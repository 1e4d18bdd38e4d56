"""The Legacy chapters' scenario rules, as variants of the Refuelled scenarios they use.

A Legacy chapter plays a Refuelled scenario with rules of its own (Legacy excerpt lines
4446, 4604-4608, 4672-4684, 4858, 4906-4926). The ``legacy`` ruleset's scenarios take them
as the scenario option ``chapter_rules`` (ids separated by commas), so a chapter's game is
an ordinary game of that scenario with those effects installed; any Legacy game may use
them (``--option chapter_rules=...``).

- ``corrosive-pools`` (GL-028): at set-up, and on every new table of a rolling road, players
  take turns placing pools until three are in play; each is a treacherous surface about Medium
  across (a 12-sided disc, ruling GL-R104). Candidate centres are a fixed grid clear of terrain
  and other pools (ruling GL-R105). A vehicle whose template or final position first overlaps a
  pool "got goo on it" (``state.scenario["legacy_goo"]``). ``corrosive-pools-once``: the same
  at set-up only (Chapter 5, GL-098).
- ``snatch`` (GL-055, GL-056; Automated Salvage): a Salvage Counter is dropped only for damage
  an enemy vehicle dealt (its last hit on the vehicle this step, ruling GL-R106); the game ends
  at the end of any round with only one player's vehicles in play (or after round 3 as usual).
- ``refrigerator`` (GL-066, GL-067; Zombie Bash): a refrigerator token at the centre, picked up
  by the first vehicle whose template or final position touches it (ruling GL-R107: always,
  it has no cost), put back touching the wreck when its carrier is wrecked; it scores nothing.
- ``corrosive-drool`` (GL-082; Big Game Hunter): the first damage a creature deals a vehicle
  marks it for a corrosion (read from the game's log by the campaign: ``drooled``).
- ``nano-tech`` (GL-097; Scavenger Party): a vehicle holding a crate counts as having the
  Nano-Cloaking Device.
- ``dinosaurs`` (GL-073..GL-080; Big Game Hunter, the Legacy errata applied in this
  scenario only, ruling GL-R108): creatures have Up and Over (GL-074); they move on the
  templates of the seat driving them (GL-075, per-seat templates); they always Smash (GL-076:
  Big Game Hunter's creatures already do); they count as Gear 3 when attacked (their evades)
  and in a collision outside their own activation (GL-079, the ``smash_dice`` hook); they
  ignore Distracted (GL-078); they are enraged only after a non-creature activation (GL-080).
  Penned In (GL-077): a creature never leaves the table; a move that would end overlapping
  the edge stops where the body last lay wholly on it (no collision with the edge).
  Not built yet: Berserk's forced flamethrower attack (GL-078).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.scenarios.common.motion import touches_along, watch_motion
from carnage.games.refuelled.scenarios.common.tokens import CarriedTokens, add_token, disc, tokens
from carnage.geometry.surfaces import Surface, SurfaceKind
from carnage.kernel.briefing import BriefRule, Cite, ScenarioBrief
from carnage.kernel.effect_ids import EffectId

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState
    from carnage.games.refuelled.scenarios import TableScenario
    from carnage.geometry.shapes import Point, Pose

SOURCE = "Gaslands: Legacy"
OPTION = "chapter_rules"
POOLS = "corrosive-pools"
POOLS_ONCE = "corrosive-pools-once"
SNATCH = "snatch"
FRIDGE = "refrigerator"
DROOL = "corrosive-drool"
NANO_TECH = "nano-tech"
DINOSAURS = "dinosaurs"
KNOWN = (POOLS, POOLS_ONCE, SNATCH, FRIDGE, DROOL, NANO_TECH, DINOSAURS)
POOL_COUNT = 3
POOL_GRID = 5
"""Candidate pool centres: a POOL_GRID x POOL_GRID grid over the table's inner part."""
GOO = "legacy_goo"
FRIDGE_ID = "refrigerator"
FRIDGE_KIND = "refrigerator"
HITS = "legacy_last_hit"
LINE_POOLS = 4446


def chapter_rules(state: GameState) -> list[str]:
    opts = state.scenario.get("options", {})
    raw = opts.get(OPTION, "") if isinstance(opts, dict) else ""
    items = raw.split(",") if isinstance(raw, str) else list(raw)
    return [str(r).strip() for r in items if str(r).strip()]


def goo(state: GameState) -> list[str]:
    """Vehicle ids that got goo on them this game."""
    return list(state.scenario.get(GOO, []))


def fridge_holder(state: GameState) -> str | None:
    t = tokens(state).get(FRIDGE_ID)
    return None if t is None else t.get("carrier")


def drooled(game: Game) -> list[str]:
    """GL-082: vehicles a creature damaged (the first time counts), from the game's log."""
    if DROOL not in chapter_rules(game.state):
        return []
    st = game.state
    last: dict[str, str] = {}
    out: list[str] = []
    for e in game.log.events:
        d = e.data
        if e.kind == "attack_hits":
            target, by = d.get("target"), d.get("vehicle", d.get("origin"))
            if isinstance(target, str) and isinstance(by, str):
                last[target] = by
        elif e.kind == "smash_attack" and int(str(d.get("hits", 0) or 0)) > 0:
            target, by = d.get("target"), d.get("attacker")
            if isinstance(target, str) and isinstance(by, str):
                last[target] = by
        elif e.kind == "damage" and int(str(d.get("amount", 0) or 0)) > 0:
            vid = d.get("vehicle")
            by_id = last.get(str(vid))
            hitter = st.vehicles.get(by_id) if by_id is not None else None
            hurt = st.vehicles.get(str(vid))
            if (hitter is not None and hitter.neutral and hurt is not None
                    and not hurt.neutral and hurt.id not in out):
                out.append(hurt.id)
    return out


def check_rules(rules: Sequence[Any]) -> list[str]:
    from carnage.games.refuelled.setup import SetupError

    out = []
    for r in rules:
        if str(r) not in KNOWN:
            raise SetupError(f"scenario option chapter_rules: unknown rule {r!r} "
                             f"(known: {', '.join(KNOWN)})")
        out.append(str(r))
    return out


# -- corrosive pools ------------------------------------------------------------------------------
def pool_radius(game: Game) -> float:
    return float(game.templates.ranges["medium"]) / 2.0


def pool_candidates(game: Game) -> dict[str, Point]:
    """Where the next pool may go: grid points whose pool lies on the table clear of
    terrain and of the pools already placed."""
    from carnage.geometry.shapes import penetration

    st = game.state
    r = pool_radius(game)
    out: dict[str, Point] = {}
    for i in range(POOL_GRID):
        for j in range(POOL_GRID):
            x = st.width * (i + 1) / (POOL_GRID + 1)
            y = st.height * (j + 1) / (POOL_GRID + 1)
            if x - r < 0 or y - r < 0 or x + r > st.width or y + r > st.height:
                continue
            shape = disc((x, y), 2 * r)
            if any(penetration(shape, o.polygon()) >= 0 for o in st.obstacles.values()):
                continue
            if any(penetration(shape, list(s.polygon)) >= 0 for s in st.surfaces.values()
                   if s.id.startswith("pool-")):
                continue
            out[f"{round(x)},{round(y)}"] = (x, y)
    return out


def place_pools(game: Game) -> Flow:
    """GL-028: players take turns (clockwise from the first seat, ruling GL-R105) placing
    pools until three are in play."""
    st = game.state
    placed = sum(1 for s in st.surfaces if s.startswith("pool-"))
    n = int(st.scenario.setdefault("legacy_pools_made", 0))
    p = 0
    while placed < POOL_COUNT:
        spots = pool_candidates(game)
        if not spots:
            game.emit("legacy_rule", source=SOURCE, page=None, rule="GL-028",
                      what="no room left for another corrosive pool")
            return
        player = p % st.players
        pick = yield ask(player, "corrosive_pool", "Where does the next corrosive pool go?",
                         [(k, f"a pool centred at {k} mm") for k in spots], source=SOURCE)
        x, y = spots[str(pick)]
        n += 1
        sid = f"pool-{n}"
        st.surfaces[sid] = Surface(sid, SurfaceKind.TREACHEROUS,
                                   tuple(disc((x, y), 2 * pool_radius(game))))
        st.scenario["legacy_pools_made"] = n
        game.emit("legacy_rule", source=SOURCE, page=None, rule="GL-028",
                  what="corrosive pool placed", surface=sid, x=x, y=y, player=player)
        placed += 1
        p += 1


def _judge_goo(game: Game, v: VehicleState, poses: list[Pose]) -> None:
    st = game.state
    seen: list[str] = st.scenario.setdefault(GOO, [])
    if v.id in seen or v.neutral:
        return
    for s in st.surfaces.values():
        if s.id.startswith("pool-") and touches_along(poses, v.length, v.width,
                                                     list(s.polygon)):
            seen.append(v.id)
            game.emit("legacy_rule", source=SOURCE, page=None, rule="GL-028",
                      what="got goo on it", vehicle=v.id, surface=s.id)
            return


# -- the wrapper ----------------------------------------------------------------------------------
def _legacy(section: str, lines: str) -> Cite:
    """A section of the Legacy excerpt (no page numbers: its lines in our seed text)."""
    word = "lines" if "-" in lines else "line"
    return Cite("Gaslands: Legacy", where=f"{section} (excerpt {word} {lines})")


CHAPTER_BRIEFS: dict[str, BriefRule] = {
    POOLS: BriefRule("Corrosive Pools", "Players take turns placing three treacherous pools, "
                     "about Medium across, at set-up and on every new table; a vehicle that "
                     "touches one gets goo on it (a corrosion after the game).",
                     _legacy("Corrosive Pools", "274")),
    POOLS_ONCE: BriefRule("Corrosive Pools", "Players take turns placing three treacherous "
                          "pools, about Medium across, at set-up; a vehicle that touches one "
                          "gets goo on it.", _legacy("Corrosive Pools", "750-754")),
    SNATCH: BriefRule("Snatch", "A Salvage Counter drops only for damage an enemy vehicle "
                      "dealt, and the game ends at the end of a round with one player's "
                      "vehicles left.", _legacy("Snatch", "430-432")),
    FRIDGE: BriefRule("The Refrigerator", "A refrigerator stands at the centre: touch it to "
                      "pick it up; it falls beside its carrier's wreck. It scores nothing but "
                      "matters after the game.", _legacy("The Refrigerator", "500-534")),
    DROOL: BriefRule("Corrosive Drool", "The first damage a creature deals a vehicle marks "
                     "it for a corrosion.", _legacy("Corrosive Drool", "686")),
    NANO_TECH: BriefRule("Experimental Nano Tech", "While a vehicle holds a crate it counts as "
                         "having the Nano-Cloaking Device.",
                         _legacy("Experimental Nano Tech", "734-746")),
    DINOSAURS: BriefRule("Dinosaurs", "Creatures go up and over terrain, move on the driving "
                         "seat's templates, always smash, count as gear 3 when hit and never "
                         "leave the table.", _legacy("Dinosaurs", "620-626")),
}
"""Each chapter rule in our words, for the scenario's brief (``ScenarioBrief.differs``)."""

LEGACY_RULES = (
    BriefRule("Legacy teams", "Only Legacy teams play; a player who brings none gets two "
              "generated Legacy vehicles.", _legacy("Creating a Legacy Team", "270")),
    BriefRule("Televised Carnage", "A vehicle scoring 6 or more hits in one Attack Step, "
              "counted before evades, earns its player an Audience Vote.",
              _legacy("Televised Carnage", "220-232")),
    BriefRule("Live Fast", "A vehicle starting its own Wipeout Step with more Hazards than Hull "
              "Points left earns its player an Audience Vote.", _legacy("Live Fast", "234-236")),
    BriefRule("Votes lost", "Unspent Audience Votes are never carried into the next game.",
              _legacy("Audience Votes", "242")),
)
"""What every Legacy game changes from Refuelled, in our words."""

LEGACY_SUMMARIES = {
    "street-race": "Legacy teams race from the start flags to the finish flags; the first "
                   "vehicle across the finish line wins.",
}
"""Summaries that name Refuelled's prescribed teams, as Legacy plays them (its own teams)."""


def chapter_scenario(cls: type[TableScenario]) -> type[TableScenario]:
    """``cls`` taking the chapter rules as the option ``chapter_rules``."""
    schema = {**getattr(cls, "options_schema", {}), OPTION: (str, "")}

    def install(self: Any, game: Game) -> None:
        cls.install(self, game)
        rules = check_rules(chapter_rules(game.state))
        eff = f"legacy:chapter:{self.id}"
        if POOLS in rules or POOLS_ONCE in rules:
            # Goo gets on whatever touches a pool, a wreck skidding through it too (SC-44).
            watch_motion(game, eff, "legacy_goo_seen", _judge_goo, wrecks_too=True)
        if NANO_TECH in rules:
            _install_nano_tech(game, eff)
        if SNATCH in rules:
            game.effects.on("logged:attack_hits", eff, _note_hit)
            game.effects.on("logged:smash_attack", eff, _note_hit)
        if DINOSAURS in rules:
            _install_dinosaurs(game, eff)

    def setup(self: Any, game: Game) -> Flow:
        rules = check_rules(chapter_rules(game.state))
        if POOLS in rules or POOLS_ONCE in rules:
            yield from place_pools(game)
        if FRIDGE in rules and FRIDGE_ID not in tokens(game.state):
            st = game.state
            add_token(game, FRIDGE_ID, FRIDGE_KIND, at=(st.width / 2, st.height / 2),
                      source=SOURCE, page=None)
        yield from cls.setup(self, game)
        if DINOSAURS in rules:
            _creatures_up_and_over(game)

    def brief(self: Any, game: Game | None = None) -> ScenarioBrief:
        """The scenario as Legacy plays it: Legacy's own rules, and the chapter's rules the
        game's ``chapter_rules`` option names."""
        out: ScenarioBrief = cls.brief(self, game)
        rules = [] if game is None else check_rules(chapter_rules(game.state))
        return out.with_variant("Gaslands: Legacy", LEGACY_RULES + tuple(
            CHAPTER_BRIEFS[r] for r in dict.fromkeys(rules)))

    body: dict[str, Any] = {"options_schema": schema, "install": install, "setup": setup,
                            "brief": brief, "summary": LEGACY_SUMMARIES.get(cls.id, cls.summary),
                            "__doc__": f"{cls.__name__} with the Legacy chapters' rules."}
    if issubclass(cls, CarriedTokens):  # the scenarios with tokens to pick up
        def token_picked_up(self: Any, game: Game, v: VehicleState, tid: str) -> None:
            if tid == FRIDGE_ID:
                game.emit("legacy_rule", source=SOURCE, page=None, rule="GL-066",
                          what="picked up the refrigerator", vehicle=v.id)
                return
            cls.token_picked_up(self, game, v, tid)

        body["token_picked_up"] = token_picked_up

        def may_pick_up(self: Any, game: Game, v: VehicleState, tid: str) -> bool:
            if tid == FRIDGE_ID:
                return True
            return bool(cls.may_pick_up(self, game, v, tid))

        body["may_pick_up"] = may_pick_up
    if hasattr(cls, "_damaged"):
        def _damaged(self: Any, value: Any, ctx: dict[str, Any]) -> None:
            game: Game = ctx["game"]
            if SNATCH in chapter_rules(game.state) and not _enemy_damage(game, ctx["data"]):
                return None
            cls._damaged(self, value, ctx)
            return None

        body["_damaged"] = _damaged
    if hasattr(cls, "gear_phase_start"):
        def gear_phase_start(self: Any, game: Game) -> Flow | None:
            out: Flow | None = cls.gear_phase_start(self, game)
            if POOLS not in chapter_rules(game.state):
                return out
            return _with_new_table_pools(game, out)

        body["gear_phase_start"] = gear_phase_start
    if hasattr(cls, "check_end"):
        def check_end(self: Any, game: Game) -> None:
            if SNATCH in chapter_rules(game.state) and not game.state.finished:
                _snatch_end(self, game)
            if not game.state.finished:
                cls.check_end(self, game)

        body["check_end"] = check_end
    if hasattr(cls, "bot_choice"):
        def bot_choice(self: Any, game: Game, decision: Any) -> Any:
            if decision.kind == "corrosive_pool":
                return _bot_pool(game, decision)
            return cls.bot_choice(self, game, decision)

        body["bot_choice"] = bot_choice
    return cast("type[TableScenario]", type(cls.__name__, (cls,), body))


def _bot_pool(game: Game, decision: Any) -> Any:
    """A bot puts pools far from its own vehicles' likely paths: the candidate nearest a
    table corner (a simple, deterministic choice)."""
    st = game.state
    best = None
    for o in decision.options:
        x, y = (float(t) for t in str(o.value).split(","))
        d = min(x, st.width - x) + min(y, st.height - y)
        if best is None or d < best[0]:
            best = (d, o.value)
    return None if best is None else best[1]


def _with_new_table_pools(game: Game, inner: Flow | None) -> Flow:
    """GL-028: on a rolling road, the pools come back on every new table."""
    def table() -> Any:
        road = game.state.scenario.get("road")
        return road.get("table") if isinstance(road, dict) else None

    before = table()
    if inner is not None:
        yield from inner
    after = table()
    if after != before:
        for sid in [s for s in game.state.surfaces if s.startswith("pool-")]:
            del game.state.surfaces[sid]
        yield from place_pools(game)


def _note_hit(value: Any, ctx: dict[str, Any]) -> None:
    game: Game = ctx["game"]
    d = ctx["data"]
    target = d.get("target")
    by = d.get("vehicle", d.get("origin")) if "attacker" not in d else d.get("attacker")
    if isinstance(target, str) and isinstance(by, str):
        game.state.scenario.setdefault(HITS, {})[target] = by
    return None


def _enemy_damage(game: Game, data: dict[str, Any]) -> bool:
    """GL-055: damage an enemy vehicle dealt (the last hit on the vehicle this game)."""
    from carnage.games.refuelled.scenarios.common import score

    st = game.state
    vid = str(data.get("vehicle"))
    by_id = st.scenario.get(HITS, {}).get(vid)
    v, by = st.vehicles.get(vid), st.vehicles.get(str(by_id))
    if v is None or by is None or by.neutral:
        return False
    return score.side_of(game, by.player) != score.side_of(game, v.player)


def _snatch_end(scn: Any, game: Game) -> None:
    """GL-056: only one player has vehicles in play: the game ends (judged after each step
    like the scenario's own end; ruling GL-R106)."""
    players = {v.player for v in game.state.in_play() if scn.counts(game, v)}
    if len(players) <= 1:
        scn.final_scores(game, "only one player's vehicles left (Snatch)")


def _install_nano_tech(game: Game, eff: str) -> None:
    """GL-097: while a vehicle holds a crate it counts as having the Nano-Cloaking Device."""
    from carnage.games.legacy.rules import nano_cloak_effects
    from carnage.games.refuelled.scenarios.common.tokens import carried_by

    st = game.state
    for v in st.vehicles.values():
        if v.neutral or "nano_cloaking_device" in v.upgrades:
            continue

        def holds(v: VehicleState = v) -> bool:
            return bool(carried_by(st, v.id, "crate"))

        nano_cloak_effects(game, v, f"{eff}:nano:{v.id}", when=holds)


# -- dinosaurs ------------------------------------------------------------------------------------
DINO_GEAR = 3
FLAMER = "flamethrower"
"""GL-079: a creature counts as Gear 3 when attacked and in collisions outside its activation."""


def _creatures_up_and_over(game: Game) -> None:
    """GL-074: every creature has Up And Over (Refuelled p.71)."""
    from carnage.games.refuelled.scenarios.beasts import is_creature

    for v in game.state.vehicles.values():
        if is_creature(v) and "up_and_over" not in v.special_rules:
            v.special_rules.append("up_and_over")
            game.install_rule("vehicle_rule", "up_and_over", v,
                              EffectId("legacy", "dinosaur", v.id))
            game.emit("legacy_rule", source=SOURCE, page=None, rule="GL-074",
                      what="the creature has Up and Over", vehicle=v.id)


def _on_table(game: Game, v: VehicleState, pose: Pose) -> bool:
    from carnage.geometry.shapes import Rect

    st = game.state
    return all(0.0 <= x <= st.width and 0.0 <= y <= st.height
               for x, y in Rect(pose, v.length, v.width).polygon())


def _install_dinosaurs(game: Game, eff: str) -> None:
    from carnage.games.refuelled.engine.collision import smash_dice, weight_class
    from carnage.games.refuelled.scenarios.beasts import is_creature, memory

    def gear_of(v: Any) -> int:
        if is_creature(v) and game.state.active != v.id:
            return DINO_GEAR
        return int(v.gear)

    def dice(n: int, ctx: dict[str, Any]) -> int | None:
        me, other = ctx.get("vehicle"), ctx.get("other")
        if me is None or other is None or not (is_creature(me) or is_creature(other)):
            return None
        orientation = str(ctx["orientation"])
        wm, wo = weight_class(game, me), weight_class(game, other)
        before = smash_dice(orientation, int(me.gear), int(other.gear), wm, wo)
        after = smash_dice(orientation, gear_of(me), gear_of(other), wm, wo)
        return n + after - before if after != before else None

    def not_distracted(value: Any, ctx: dict[str, Any]) -> Any:
        return False if is_creature(ctx.get("vehicle")) else None

    def calm_after_creature(g: Game, ctx: dict[str, Any]) -> Flow:
        if is_creature(ctx.get("vehicle")) and memory(g)["rage"]:
            memory(g)["rage"] = {}
            g.emit("legacy_rule", source=SOURCE, page=None, rule="GL-080",
                   what="no creature is enraged by a creature's activation",
                   vehicle=ctx["vehicle"].id)
        yield from ()

    def penned_in(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        if not is_creature(v):
            return None
        assert v is not None
        result = ctx["result"]
        if not _on_table(game, v, v.pose):
            low, high = 0.0, float(result.travel)
            for _ in range(40):
                mid = (low + high) / 2
                if _on_table(game, v, result.pose_at(mid)):
                    low = mid
                else:
                    high = mid
            v.pose = result.pose_at(low)
        game.emit("legacy_rule", source=SOURCE, page=None, rule="GL-077",
                  what="Penned In: the creature stops at the table edge", vehicle=v.id,
                  x=round(v.pose.x, 3), y=round(v.pose.y, 3))
        return False

    def covered(v: Any, shot: Any) -> int:
        from carnage.games.refuelled.rules.weapons import splash_sets

        return 1 + max(len(x) for x in splash_sets(game, v, shot))

    def berserk(options: list[tuple[str, str]], ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        shots = [x for x in ctx.get("shots", []) if x.weapon == FLAMER]
        if v is None or not is_creature(v) or not shots:
            return None
        most = {x.value: covered(v, x) for x in shots}
        top = max(most.values())
        keep = [o for o in options if most.get(str(o[0])) == top]
        if keep:
            game.emit("legacy_rule", source=SOURCE, page=None, rule="GL-078",
                      what="Berserk: the creature must use its flamethrower on the most "
                      "vehicles", vehicle=v.id, covers=top)
        return keep or None

    def berserk_splash(sets: list[tuple[str, ...]], ctx: dict[str, Any]) -> Any:
        if not is_creature(ctx.get("vehicle")) or ctx["shot"].weapon != FLAMER or not sets:
            return None
        top = max(len(x) for x in sets)
        return [x for x in sets if len(x) == top]

    game.effects.on("smash_dice", eff, dice)
    game.effects.on("attack_choices", eff, berserk)
    game.effects.on("splash_sets", eff, berserk_splash)
    game.effects.on("off_table", eff, penned_in)
    game.effects.on("distracted", eff, not_distracted)
    game.effects.add_flow("after_activation", eff, lambda ctx: calm_after_creature, -50)
