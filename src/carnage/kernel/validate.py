"""Checking what a snapshot document decoded to before a game is built from it.

A snapshot is data from outside: a stored row, a file, a request. The codec builds the
dataclasses it names without running their constructors, so nothing stops a field typed
``int`` from holding ``3.7``, a list from being a string or a coordinate from being ``1e300``.
A game built from such a state restores and then crashes on a legal ``apply``. Restoring is
therefore two passes over the decoded state:

* **types** (the kernel, for every ruleset): ``check_value`` walks the state against the type
  hints of its dataclasses: ints are ints (never bools or floats), numbers are finite and
  bounded, lists, dicts, sets, tuples, enums and nested dataclasses are what their field says;
* **invariants** (each ruleset's ``check_state``): what the types cannot say, such as a gear
  within 1..max gear or a player count that fits the scenario.

Either refuses with ``Invalid``, whose message starts with a path such as
``state.vehicles['p1-car'].gear``. Checkers are built once per type and cached. A check first
walks the state without naming places (a checker given the path ``None`` builds no path
strings: most of a walk's cost was formatting them); only when that walk refuses does it walk
again with paths, to name the first place that does not fit (the same place: the walks go in
the same order).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any, ForwardRef, cast

MAX_NUMBER = 1e9
"""Largest magnitude of a number in a state (millimetres, counters, ids): far above any real
game, far below what overflows a geometry calculation."""
MAX_INT = 2**62


class Invalid(ValueError):
    """A decoded value does not fit where it is; the message starts with its path."""

    def __init__(self, path: str | None, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


Checker = Callable[[Any, str | None], None]
"""A check of a value at a path; the path ``None`` names no place (a quick walk whose
``Invalid`` is thrown away: ``check_value`` walks again with paths to name the place)."""
_CACHE: dict[Any, Checker] = {}


def check_value(value: Any, tp: Any, path: str = "state") -> None:
    """``Invalid`` naming the first place where ``value`` does not fit type ``tp``."""
    run_check(checker(tp), value, path)


def run_check(check: Checker, value: Any, path: str) -> None:
    """``check(value, path)``: first quickly, naming no place, and only if that refuses again
    with paths, to name the first place that does not fit."""
    try:
        check(value, None)  # the quick walk: no path strings built
    except Invalid as quick:
        check(value, path)  # the same walk naming places: raises at the same place
        raise Invalid(path, str(quick).partition(": ")[2]) from None


def checker(tp: Any) -> Checker:
    """The (cached) check for values of type ``tp``."""
    try:
        return _CACHE[tp]
    except KeyError:
        pass
    except TypeError:  # an unhashable type form
        return _build(tp)
    fn = _build(tp)
    _CACHE[tp] = fn
    return fn


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def key_path(path: str, key: Any) -> str:
    """``path.key`` for a plain name, ``path['p1-car']`` for any other key."""
    if type(key) is str and key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{short(key)}]"


def _key_at(path: str | None, key: Any) -> str | None:
    """``key_path`` in a walk (None: the quick walk names no place)."""
    return None if path is None else key_path(path, key)


def _key_of(path: str | None, key: Any) -> str | None:
    """The path naming a mapping's key itself (None: None)."""
    return None if path is None else f"{path} key {short(key)}"


def _what(value: Any) -> str:
    return f"{short(value)} ({type(value).__name__})"


# -- scalars -----------------------------------------------------------------------------------
def _any(value: Any, path: str | None) -> None:
    """A field typed ``Any`` (a scenario's progress, an effect's memory): whatever it holds,
    its numbers are finite and bounded and the dataclasses in it are checked as themselves."""
    t = type(value)
    if value is None or t is bool or t is str:
        return
    if t is int:
        _int(value, path)
    elif t is float:
        _float(value, path)
    elif t is list or t is tuple:
        for i, v in enumerate(value):
            _any(v, None if path is None else f"{path}[{i}]")
    elif t is set or t is frozenset:
        for v in value:
            _any(v, None if path is None else f"{path}{{}}")
    elif t is dict:
        for k, v in value.items():
            _any(k, _key_of(path, k))
            _any(v, _key_at(path, k))
    elif isinstance(value, Enum):
        return
    elif dataclasses.is_dataclass(value) or isinstance(getattr(t, "VALUE_FIELDS", None), tuple):
        checker(t)(value, path)


def _bool(value: Any, path: str | None) -> None:
    if type(value) is not bool:
        raise Invalid(path, f"expected true or false, not {_what(value)}")


def _int(value: Any, path: str | None) -> None:
    if type(value) is not int:
        raise Invalid(path, f"expected a whole number, not {_what(value)}")
    if not -MAX_INT <= value <= MAX_INT:
        raise Invalid(path, f"{short(value)} is out of range")


def _float(value: Any, path: str | None) -> None:
    if type(value) is float:
        if not (math.isfinite(value) and -MAX_NUMBER <= value <= MAX_NUMBER):
            raise Invalid(path, f"{short(value)} is not a finite number of at most "
                                f"{MAX_NUMBER:g}")
        return
    if type(value) is int:
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise Invalid(path, f"{short(value)} is out of range")
        return
    raise Invalid(path, f"expected a number, not {_what(value)}")


def _str(value: Any, path: str | None) -> None:
    if type(value) is not str:
        raise Invalid(path, f"expected text, not {_what(value)}")


def _none(value: Any, path: str | None) -> None:
    if value is not None:
        raise Invalid(path, f"expected null, not {_what(value)}")


def json_value(value: Any, path: str | None) -> None:
    """Plain JSON data: null, true/false, finite numbers, text, lists and text-keyed maps."""
    if value is None or type(value) is bool or type(value) is str:
        return
    if type(value) is int:
        _int(value, path)
    elif type(value) is float:
        _float(value, path)
    elif isinstance(value, list | tuple):
        if path is None:  # the quick walk: plain items checked in line (a game's choices)
            for v in value:
                t = type(v)
                if t is str or t is bool or v is None or (
                        t is int and -MAX_INT <= v <= MAX_INT):
                    continue
                json_value(v, None)
            return
        for i, v in enumerate(value):
            json_value(v, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            if type(k) is not str:
                raise Invalid(path, f"a key {short(k)} is not text")
            json_value(v, _key_at(path, k))
    else:
        raise Invalid(path, f"expected JSON data, not {_what(value)}")


_SCALARS: dict[Any, Checker] = {
    Any: _any, bool: _bool, int: _int, float: _float, str: _str, type(None): _none,
    None: _none, object: _any,
}


# -- containers --------------------------------------------------------------------------------
def _union(arms: tuple[Any, ...]) -> Checker:
    nullable = type(None) in arms
    rest = [a for a in arms if a is not type(None)]
    checks = [checker(a) for a in rest]
    names = " or ".join(_type_name(a) for a in arms)
    # A value of a plain type goes straight to its arm (no failed tries on the way).
    direct: dict[type, Checker] = {}
    for a in rest:
        if a in (int, float, str, bool):
            direct[a] = checker(a)
    if float in direct and int not in direct:
        direct[int] = direct[float]

    def check(value: Any, path: str | None) -> None:
        if value is None and nullable:
            return
        fast = direct.get(type(value))
        if fast is not None:
            fast(value, path)
            return
        if len(checks) == 1:
            if value is None:
                raise Invalid(path, f"expected {names}, not null")
            checks[0](value, path)
            return
        for c in checks:
            try:
                c(value, path)
            except Invalid:
                continue
            return
        raise Invalid(path, f"expected {names}, not {_what(value)}")

    return check


def _list(item: Checker, kinds: tuple[type, ...] = (list,)) -> Checker:
    def check(value: Any, path: str | None) -> None:
        if not isinstance(value, kinds):
            raise Invalid(path, f"expected a list, not {_what(value)}")
        items = cast(Sequence[Any], value)
        if path is None:
            for v in items:
                item(v, None)
            return
        for i, v in enumerate(items):
            item(v, f"{path}[{i}]")

    return check


def _set(item: Checker) -> Checker:
    def check(value: Any, path: str | None) -> None:
        if not isinstance(value, set | frozenset):
            raise Invalid(path, f"expected a set, not {_what(value)}")
        sub = None if path is None else f"{path}{{}}"
        for v in value:
            item(v, sub)

    return check


def _tuple(args: tuple[Any, ...]) -> Checker:
    if len(args) == 2 and args[1] is Ellipsis:
        return _list(checker(args[0]), (tuple,))
    items = [checker(a) for a in args]

    def check(value: Any, path: str | None) -> None:
        if not isinstance(value, tuple):
            raise Invalid(path, f"expected a tuple, not {_what(value)}")
        if len(value) != len(items):
            raise Invalid(path, f"expected {len(items)} items, not {len(value)}")
        for i, (c, v) in enumerate(zip(items, value, strict=True)):
            c(v, None if path is None else f"{path}[{i}]")

    return check


def _dict(key: Checker, val: Checker) -> Checker:
    def check(value: Any, path: str | None) -> None:
        if not isinstance(value, dict):
            raise Invalid(path, f"expected a mapping, not {_what(value)}")
        if path is None:
            if key is _str:
                for k, v in value.items():
                    if type(k) is not str:
                        raise Invalid(None, "expected text")
                    val(v, None)
                return
            for k, v in value.items():
                key(k, None)
                val(v, None)
            return
        for k, v in value.items():
            key(k, _key_of(path, k))
            val(v, _key_at(path, k))

    return check


# -- classes -----------------------------------------------------------------------------------
_FIELD_TYPES: dict[type, dict[str, Any]] = {}
"""Classes' own fields' types declared by their modules (``declare_field_types``)."""


def declare_field_types(table: Mapping[type, Mapping[str, Any]]) -> None:
    """Declare the types of classes' own fields (not those of their bases), as annotated.

    A dataclass compiled with mypyc keeps only erased annotations at run time (``str | None``
    becomes ``type``, ``list[X]`` becomes ``list``), so a compiled module declares its
    classes' field types in a table beside them; ``field_types`` reads it before the
    annotations. A test checks each table against the source's annotations."""
    for cls, hints in table.items():
        _FIELD_TYPES[cls] = dict(hints)
        _CACHE.pop(cls, None)


def field_types(cls: type) -> dict[str, Any]:
    """The types of ``cls``'s fields: declared (``declare_field_types``, through its bases)
    when it or a base declared them, else its annotations (``typing.get_type_hints``)."""
    declared = [c for c in reversed(cls.__mro__) if c in _FIELD_TYPES]
    if not declared:
        return typing.get_type_hints(cls)
    if cls not in _FIELD_TYPES:
        raise TypeError(f"{cls.__name__}: a base declares its field types, it does not")
    out: dict[str, Any] = {}
    for c in declared:
        out.update(_FIELD_TYPES[c])
    return out


def _dataclass(cls: type) -> Checker:
    fields: list[tuple[str, Checker]] | None = None
    # For the quick walk: the fields typed plainly ``str``, ``bool`` or ``int``, checked in
    # line, and the others with their checks (the walk naming places goes field by field).
    texts: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    whole: tuple[str, ...] = ()
    others: list[tuple[str, Checker]] = []

    def check(value: Any, path: str | None) -> None:
        nonlocal fields, texts, flags, whole, others
        if not isinstance(value, cls):
            raise Invalid(path, f"expected a {cls.__name__}, not {_what(value)}")
        if type(value) is not cls:
            checker(type(value))(value, path)
            return
        if fields is None:  # built on first use: a class may refer to itself
            hints = field_types(cls)
            names = [f.name for f in dataclasses.fields(cast(Any, cls))]
            if cls in _FIELD_TYPES and set(names) != set(hints):
                raise TypeError(f"{cls.__name__}: declared field types do not match its "
                                f"fields ({sorted(set(names) ^ set(hints))})")
            built = [(n, checker(hints.get(n, Any))) for n in names]
            texts = tuple(n for n, c in built if c is _str)
            flags = tuple(n for n, c in built if c is _bool)
            whole = tuple(n for n, c in built if c is _int)
            others = [(n, c) for n, c in built if c not in (_str, _bool, _int)]
            fields = built
        if path is None:
            for name in texts:
                if type(getattr(value, name)) is not str:
                    raise Invalid(None, "expected text")
            for name in flags:
                if type(getattr(value, name)) is not bool:
                    raise Invalid(None, "expected true or false")
            for name in whole:
                v = getattr(value, name)
                if type(v) is not int or not -MAX_INT <= v <= MAX_INT:
                    raise Invalid(None, "expected a whole number in range")
            for name, c in others:
                c(getattr(value, name), None)
            return
        for name, c in fields:
            c(getattr(value, name), f"{path}.{name}")

    return check


def _value_class(cls: type, names: tuple[str, ...]) -> Checker:
    """A compiled value class (``Pose``): every field a finite number or another one."""

    def check(value: Any, path: str | None) -> None:
        if type(value) is not cls:
            raise Invalid(path, f"expected a {cls.__name__}, not {_what(value)}")
        for n in names:
            v = getattr(value, n)
            sub = getattr(type(v), "VALUE_FIELDS", None)
            at = None if path is None else f"{path}.{n}"
            if isinstance(sub, tuple):
                checker(type(v))(v, at)
            else:
                _float(v, at)

    return check


def _instance(cls: type) -> Checker:
    def check(value: Any, path: str | None) -> None:
        if not isinstance(value, cls):
            raise Invalid(path, f"expected a {_type_name(cls)}, not {_what(value)}")

    return check


def _type_name(tp: Any) -> str:
    if tp is type(None):
        return "null"
    return getattr(tp, "__name__", None) or str(tp)


def _build(tp: Any) -> Checker:
    if isinstance(tp, ForwardRef | str):  # a recursive alias (JsonValue): plain JSON
        return json_value
    try:
        scalar = _SCALARS.get(tp)
    except TypeError:
        scalar = None
    if scalar is not None:
        return scalar
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        if any(isinstance(a, ForwardRef | str) or any(
                isinstance(x, ForwardRef | str) for x in typing.get_args(a)) for a in args):
            return json_value  # a recursive alias (JsonValue)
        return _union(args)
    if origin is typing.Literal:
        allowed = set(args)
        return lambda v, p: None if v in allowed and type(v) in {type(a) for a in args} \
            else _fail(p, f"expected one of {sorted(map(str, allowed))}, not {_what(v)}")
    if origin is list:
        return _list(checker(args[0]) if args else _any)
    if origin in (Sequence, typing.Sequence):
        return _list(checker(args[0]) if args else _any, (list, tuple))
    if origin in (set, frozenset):
        return _set(checker(args[0]) if args else _any)
    if origin is tuple:
        return _tuple(args) if args else _list(_any, (tuple,))
    if origin in (dict, Mapping, typing.Mapping):
        if not args:
            return _dict(_any, _any)
        return _dict(checker(args[0]), checker(args[1]))
    if isinstance(tp, type):
        if issubclass(tp, Enum):
            return _instance(tp)
        if dataclasses.is_dataclass(tp):
            return _dataclass(tp)
        names = getattr(tp, "VALUE_FIELDS", None)
        if isinstance(names, tuple):
            return _value_class(tp, names)
        if tp is list:
            return _list(_any)
        if tp is dict:
            return _dict(_any, _any)
        return _instance(tp)
    return _any


def _fail(path: str | None, message: str) -> None:
    raise Invalid(path, message)


# -- helpers for a ruleset's invariants --------------------------------------------------------
def within(value: int | float, low: float, high: float, path: str, what: str = "") -> None:
    """``Invalid`` unless ``low <= value <= high``. (``value`` is typed ``int | float`` so
    that compiled, a whole number is not made a float: the message shows it as it is.)"""
    if not low <= value <= high:
        name = f"{what} " if what else ""
        raise Invalid(path, f"{name}{short(value)} is outside {low:g}..{high:g}")


def one_of(value: Any, allowed: Any, path: str) -> None:
    if value not in allowed:
        known = ", ".join(sorted(map(str, allowed)))
        raise Invalid(path, f"{short(value)} is not one of {known}")
