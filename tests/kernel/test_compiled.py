"""The compiled modules (mypyc, ``carnage/compiled.py``): used all together or not at all, and
never when a source changed after the build."""

from __future__ import annotations

import ast
import copy
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from carnage import compiled


def test_a_current_build_is_used_whole_and_no_build_is_plain_python():
    used = compiled.in_use()
    record = compiled.recorded()
    if record and not compiled.stale(record):
        assert used == list(compiled.COMPILED)
        assert "compiled with mypyc" in compiled.describe()
    else:
        assert used == []
        assert compiled.describe().startswith("pure Python")


def test_an_edited_source_is_stale(tmp_path, monkeypatch):
    stamp = tmp_path / "_compiled.json"
    good = {name: compiled.digest(name) for name in compiled.COMPILED}
    stamp.write_text(json.dumps({"modules": good}))
    monkeypatch.setattr(compiled, "STAMP", stamp)
    assert compiled.stale() == []
    edited = dict(good, **{"carnage.geometry.shapes": "0" * 64})
    stamp.write_text(json.dumps({"modules": edited}))
    assert compiled.stale() == ["carnage.geometry.shapes"]
    stamp.write_text("{not json")
    assert compiled.recorded() == {}


def test_with_a_stale_build_every_compiled_module_comes_from_its_source():
    # A fresh interpreter: the guard sees a record that no longer matches, so the compiled
    # modules (loaded after it) come from their .py files, and it warns.
    code = (
        "import warnings, carnage.compiled as c\n"
        "c.recorded = lambda: {n: '0' * 64 for n in c.COMPILED}\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    c.guard()\n"
        "import carnage.geometry.shapes as s, carnage.geometry.movement as m\n"
        "print(s.__file__.endswith('.py'), m.__file__.endswith('.py'), c.in_use(),\n"
        "      any('make compile' in str(x.message) for x in w))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.split() == ["True", "True", "[]", "True"]


def test_an_extension_the_build_did_not_record_is_never_used():
    # A module dropped from the list keeps its old extension file until the next build: the
    # guard imports it from source (here the record is made to miss shapes).
    code = (
        "import warnings, carnage.compiled as c\n"
        "rec = c.recorded()\n"
        "c.recorded = lambda: {k: v for k, v in rec.items() if k != 'carnage.geometry.shapes'}\n"
        "c.extension_modules = lambda: sorted(set(rec) | {'carnage.geometry.shapes'})\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    c.guard()\n"
        "import carnage.geometry.shapes as s\n"
        "print(s.__file__.endswith('.py'), any('shapes' in str(x.message) for x in w))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.split() == ["True", "True"]


def test_the_build_holds_exactly_the_listed_modules():
    if compiled.recorded():
        assert compiled.extension_modules() == sorted(compiled.COMPILED)
    else:
        assert compiled.extension_modules() == []


def _open_to_subclasses(node: ast.ClassDef) -> bool:
    """Marked ``@mypyc_attr(allow_interpreted_subclasses=True)``: compiled code looks its
    methods up on the object, so a subclass's override is used."""
    return any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "mypyc_attr"
               and any(k.arg == "allow_interpreted_subclasses"
                       and isinstance(k.value, ast.Constant) and k.value.value is True
                       for k in d.keywords)
               for d in node.decorator_list)


def _classes_of_compiled_modules(*, open_too: bool = False) -> set[str]:
    """The classes of the compiled modules (``open_too``: with those open to subclasses)."""
    names: set[str] = set()
    for name in compiled.COMPILED:
        tree = ast.parse(compiled.source(name).read_text(encoding="utf-8"))
        names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
                  and (open_too or not _open_to_subclasses(n))}
    return names


def test_no_class_of_a_compiled_module_is_subclassed():
    # Compiled code may call a compiled class's method directly instead of looking it up on
    # the object, so an override in a subclass (plain Python or not) could be passed by:
    # classes that rules extend (scenarios, games) stay in modules that are not compiled.
    # A compiled class extending another in the build (``GameState(KernelState)``) is fine:
    # compiled classes call each other's methods through their vtables. A class marked
    # ``allow_interpreted_subclasses`` (``Decision``, which the table's ``DiceEntry`` extends)
    # may be extended: its methods are looked up on the object.
    ours = _classes_of_compiled_modules()
    assert "Decision" in _classes_of_compiled_modules(open_too=True) and "Decision" not in ours
    root = Path(compiled.PACKAGE).parent.parent
    in_build = {compiled.source(name).resolve() for name in compiled.COMPILED}
    found = []
    for path in [*root.joinpath("src").rglob("*.py"), *root.joinpath("tests").rglob("*.py")]:
        if path.resolve() in in_build:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    base_name = (base.id if isinstance(base, ast.Name)
                                 else getattr(base, "attr", None))
                    if base_name in ours:
                        found.append(f"{path.name}: {node.name}({base_name})")
    assert "HeuristicBot" in ours and "Sight" in ours and "EventLog" in ours
    assert found == []


def _copies(obj: object) -> list[str]:
    out = []
    for how, fn in (("pickle", lambda x: pickle.loads(pickle.dumps(x))),
                    ("deepcopy", copy.deepcopy), ("copy", copy.copy)):
        try:
            fn(obj)
            out.append(f"{how}: ok")
        except Exception as e:  # the kind of failure is what is compared
            out.append(f"{how}: {type(e).__name__}")
    return out


def test_objects_of_compiled_modules_copy_as_they_do_in_plain_python():
    from carnage.games.refuelled.ai.bots import HeuristicBot, RandomBot
    from carnage.kernel.effects import EffectRegistry
    from carnage.kernel.events import Event, EventLog

    log = EventLog()
    log.emit("roll", dice=[1, 2])
    event = Event(seq=0, kind="x", data={"a": 1}, source="core", page=None)
    for obj in (log, event, RandomBot(), EffectRegistry()):
        assert _copies(obj) == ["pickle: ok", "deepcopy: ok", "copy: ok"], obj
    copied = pickle.loads(pickle.dumps(log))
    assert [e.to_json() for e in copied.events] == [e.to_json() for e in log.events]
    bot = copy.deepcopy(HeuristicBot(desired_gear=3))  # its handlers hold bound methods
    assert bot.desired_gear == 3 and copy.copy(bot).desired_gear == 3


def test_value_classes_behave_as_the_frozen_dataclasses_they_replace():
    # Pose, Rect and Event are compiled classes, not dataclasses: equal, hashed, printed,
    # copied, pickled and saved as the frozen dataclasses of their fields were.
    from carnage.geometry.shapes import Pose, Rect
    from carnage.kernel import codec
    from carnage.kernel.events import Event

    p, q = Pose(1.5, 2.0, 90.0), Pose(1.5, 2.0, 90.0)
    r = Rect(p, 40.0, 20.0)
    assert p == q and p is not q and hash(p) == hash((1.5, 2.0, 90.0))
    assert p != Pose(1.5, 2.0, 91.0) and p != (1.5, 2.0, 90.0)
    assert r == Rect(q, 40.0, 20.0) and hash(r) == hash((p, 40.0, 20.0))
    assert repr(r) == "Rect(pose=Pose(x=1.5, y=2.0, heading=90.0), length=40.0, width=20.0)"
    assert {p: 1}[q] == 1
    for obj in (p, r):
        assert _copies(obj) == ["pickle: ok", "deepcopy: ok", "copy: ok"]
        assert pickle.loads(pickle.dumps(obj)) == obj and copy.deepcopy(obj) == obj
    assert codec.encode(r) == {"$d": "carnage.geometry.shapes:Rect", "f": {
        "pose": {"$d": "carnage.geometry.shapes:Pose",
                 "f": {"x": 1.5, "y": 2.0, "heading": 90.0}},
        "length": 40.0, "width": 20.0}}
    assert codec.decode(codec.encode(r)) == r
    with pytest.raises(codec.CodecError, match="Pose fields do not match"):
        codec.decode({"$d": "carnage.geometry.shapes:Pose", "f": {"x": 1.0, "y": 2.0}})
    with pytest.raises(codec.CodecError, match="not a Pose"):
        codec.decode({"$d": "carnage.geometry.shapes:Pose",
                      "f": {"x": "one", "y": 2.0, "heading": 0.0}})
    e = Event(3, "roll", {"dice": [1, 6]}, source="skid", page=22)
    assert e == Event(seq=3, kind="roll", data={"dice": [1, 6]}, source="skid", page=22)
    assert repr(e) == ("Event(seq=3, kind='roll', data={'dice': [1, 6]}, source='skid', "
                       "page=22)")
    twin = copy.deepcopy(e)
    assert twin == e and twin.data is not e.data  # its data copied, as the dataclass's was
    with pytest.raises(TypeError):
        hash(e)  # a dict field: unhashable, as before
    if compiled.in_use():
        with pytest.raises(AttributeError):
            setattr(p, "x", 2.0)  # noqa: B010 (the assignment itself is what is tested)


def test_state_classes_copy_compare_and_save_as_the_dataclasses_they_are():
    # Refuelled's state classes are compiled (native) dataclasses in a build: they must
    # compare, print, copy, pickle, replace and save as the plain dataclasses do.
    import dataclasses

    from carnage.catalog.models import Weight
    from carnage.games.refuelled.engine.state import (
        GameState,
        Trailer,
        VehicleState,
        WeaponMount,
    )
    from carnage.geometry.shapes import Pose
    from carnage.kernel import codec, validate

    car = VehicleState(id="p1-car", name="Car", player=0, type="car",
                       weight=Weight.MIDDLEWEIGHT, hull=10, handling=3, max_gear=5, crew=2,
                       length=40.0, width=20.0, pose=Pose(100.0, 50.0, 90.0),
                       weapons=[WeaponMount("mg#0", "machine_gun", "front")],
                       trailer=Trailer(60.0, 20.0, 5.0))
    st = GameState(width=900.0, height=900.0, players=2, vehicles={"p1-car": car})
    assert st.votes == [0, 0] and st.sponsors == [None, None]  # __post_init__ ran
    st.memory["perk:x"] = {"n": 1}
    assert repr(car).startswith("VehicleState(id='p1-car', name='Car', player=0, type='car'")
    for how, twin in (("pickle", pickle.loads(pickle.dumps(st, pickle.HIGHEST_PROTOCOL))),
                      ("deepcopy", copy.deepcopy(st)),
                      ("codec", codec.decode(codec.encode(st)))):
        assert type(twin) is GameState and twin == st, how
        twin.vehicles["p1-car"].weapons[0].ammo = 3
        twin.memory["perk:x"]["n"] = 2
        assert car.weapons[0].ammo is None and st.memory["perk:x"]["n"] == 1, how
        validate.check_value(twin, GameState)
    shallow = copy.copy(car)
    assert shallow == car and shallow is not car and shallow.weapons is car.weapons
    moved = dataclasses.replace(car, pose=Pose(0.0, 0.0, 0.0))
    assert moved.pose == Pose(0.0, 0.0, 0.0) and moved.weapons is car.weapons
    assert [f.name for f in dataclasses.fields(GameState)][:5] == [
        "memory", "counts", "installed", "secrets", "width"]  # the order snapshots keep
    doc = codec.encode(st)
    # refused naming the field in the same words: by the type check (plain), or as a
    # compiled class's field refuses it while decoding
    for bad, words in ((7, "expected text, not 7"), (True, "expected text, not True")):
        doc["f"]["vehicles"]["p1-car"]["f"]["summoned_by"] = bad
        with pytest.raises((validate.Invalid, codec.CodecError),
                           match=rf"state\.vehicles\['p1-car'\]\.summoned_by: {words}"):
            validate.check_value(codec.decode(doc), GameState)
    doc["f"]["vehicles"]["p1-car"]["f"]["summoned_by"] = None
    doc["f"]["vehicles"]["p1-car"]["f"]["hull"] = True  # a flag is no number, compiled or not
    with pytest.raises((validate.Invalid, codec.CodecError),
                       match=r"state\.vehicles\['p1-car'\]\.hull: expected a whole number"):
        validate.check_value(codec.decode(doc), GameState)


def test_a_whole_number_stays_whole_in_the_type_checks_messages():
    # Compiled, a parameter typed ``float`` makes an int a float: ``within`` takes
    # ``int | float`` so that a refused count reads "99", not "99.0".
    from carnage.kernel.validate import Invalid, within

    with pytest.raises(Invalid, match=r"^state\.players: 99 is outside 2\.\.8$"):
        within(99, 2, 8, "state.players")
    with pytest.raises(Invalid, match=r"^state\.width: -0\.5 is outside 1\.\.20000$"):
        within(-0.5, 1.0, 20_000.0, "state.width")


def test_decisions_behave_as_the_frozen_dataclasses_they_replace():
    # Decision and Option are compiled classes (made for every choice of every game): built,
    # compared, hashed, printed, copied, pickled and replaced as the frozen dataclasses were.
    import dataclasses

    from carnage.kernel.decisions import Decision, Interval, Option

    opts = (Option(1, "one"), Option("b"))
    d = Decision(0, "pick", "Pick one", opts, source="skid", page=21, vehicle="p1-car")
    twin = Decision(player=0, kind="pick", prompt="Pick one", options=(Option(1, "one"),
                    Option(value="b", label="")), source="skid", page=21, vehicle="p1-car")
    assert d == twin and hash(d) == hash(twin) and d is not twin
    assert d != dataclasses.replace(d, hidden=True) and d != (0, "pick")
    assert repr(opts[0]) == "Option(value=1, label='one')"
    assert repr(d) == ("Decision(player=0, kind='pick', prompt='Pick one', options=(Option("
                       "value=1, label='one'), Option(value='b', label='')), domain=None, "
                       "source='skid', page=21, vehicle='p1-car', target=None, weapon=None, "
                       "hidden=False, confirm=False)")
    assert [f.name for f in dataclasses.fields(d)] == [
        "player", "kind", "prompt", "options", "domain", "source", "page", "vehicle",
        "target", "weapon", "hidden", "confirm"]
    assert dataclasses.is_dataclass(d) and dataclasses.fields(Option)[1].default == ""
    fewer = dataclasses.replace(d, options=opts[:1])
    assert type(fewer) is Decision and fewer.options == opts[:1] and fewer.vehicle == "p1-car"
    assert dataclasses.asdict(opts[0]) == {"value": 1, "label": "one"}
    assert Option(1) != Option(True) or hash(Option(1)) == hash(Option(True))  # as 1 == True
    for obj in (d, opts[0]):
        assert _copies(obj) == ["pickle: ok", "deepcopy: ok", "copy: ok"]
        assert pickle.loads(pickle.dumps(obj)) == obj and copy.deepcopy(obj) == obj
    # options given as any sequence (a list) are kept as a tuple, compiled or not
    listed = Decision(0, "pick", "Pick one", list(opts), source="skid", page=21,
                      vehicle="p1-car")
    assert type(listed.options) is tuple and listed == d and hash(listed) == hash(d)
    with pytest.raises(ValueError, match="either options or a continuous domain"):
        Decision(0, "pick", "Pick one")
    with pytest.raises(ValueError, match="either options or a continuous domain"):
        Decision(0, "pick", "Pick one", [])
    with pytest.raises(ValueError, match="either options or a continuous domain"):
        Decision(0, "spin", "Spin", opts, Interval(-1.0, 1.0))
    if compiled.in_use():
        with pytest.raises(AttributeError):
            setattr(d, "kind", "other")  # noqa: B010 (the assignment itself is what is tested)
        with pytest.raises(AttributeError):
            setattr(opts[0], "label", "x")  # noqa: B010


def test_a_subclass_of_decision_is_used_as_it_says_by_compiled_code():
    # The table's dice entry extends Decision: the compiled game validates a choice with the
    # entry's own ``validate``, and the entry copies and pickles with its own fields.
    from carnage.kernel.decisions import Decision, IllegalChoice, Option
    from carnage.kernel.table_dice import DiceEntry

    then = Decision(1, "attack", "Shoot?", (Option("yes", "Fire"), Option("no")), page=12)
    entry = DiceEntry(player=1, n=2, sides=6, group="attack", why="attack dice", then=then,
                      value="yes")
    assert entry.options and entry.page == 12 and entry.then["label"] == "Fire"
    assert entry.validate([6, 4]) == "6,4"
    for how, fn in (("pickle", lambda x: pickle.loads(pickle.dumps(x))),
                    ("deepcopy", copy.deepcopy), ("copy", copy.copy)):
        got = fn(entry)
        assert type(got) is DiceEntry and got == entry, how
        assert (got.n, got.sides, got.group, got.then) == (2, 6, "attack", entry.then), how
        assert got.prompt == entry.prompt and got.validate("6 4") == "6,4", how
    assert entry != Decision(*dataclasses_fields(entry))  # another class: not equal

    # a game whose flow asks for the entry (a Street Race's, its flow swapped for this one)
    from carnage.games.refuelled.setup import GameSetup, build_game

    g = build_game(GameSetup(), 1)

    def entering():
        got = yield entry
        g.emit("entered", faces=got)

    flow = entering()
    g._pending, g._flow = next(flow), flow
    with pytest.raises(IllegalChoice, match="is not a face of a D6"):
        g.apply("7,1")  # the entry's own check, not the listed options'
    assert g.pending() is entry
    g.apply([6, 4])
    assert [(e.kind, e.data.get("choice"), e.data.get("faces")) for e in g.log.events[-2:]] \
        == [("decision", "6,4", None), ("entered", None, "6,4")]
    assert g.pending() is None


def dataclasses_fields(d: object) -> list[object]:
    import dataclasses

    return [getattr(d, f.name) for f in dataclasses.fields(d)]
