"""State to JSON and back, for snapshots.

A state is plain data: dataclasses (and the compiled value classes that name their
``VALUE_FIELDS``, such as ``Pose``), enums, lists, tuples, sets, dicts, strings, numbers. JSON
has only some of these, so the others are tagged objects: ``{"$d": "module:Class", "f": {...}}``
for a dataclass or value class, ``{"$e": "module:Enum", "v": value}``, ``{"$t": [...]}`` for a
tuple, ``{"$s": [...]}`` for a set, ``{"$m": [[key, value], ...]}`` for a dict whose keys are
not all strings. Only classes defined under ``carnage.`` are ever looked up when decoding, so a
document cannot make the decoder import or build anything else.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from collections.abc import Callable
from enum import Enum
from operator import itemgetter
from typing import Any

from carnage.kernel.validate import Invalid, check_value, field_types, key_path, short

ALLOWED_PREFIX = "carnage."

_RENAMED: dict[str, str] = {}
"""Old module or package -> where its classes live now (snapshots saved before a move)."""


def module_renamed(old: str, new: str) -> None:
    """Classes saved under the module or package ``old`` (``old:Class``, ``old.sub:Class``)
    are found under ``new`` now: a game's package declares where its modules used to live, so
    snapshots saved before a move still restore."""
    if not (old.startswith(ALLOWED_PREFIX) and new.startswith(ALLOWED_PREFIX)):
        raise ValueError(f"only carnage modules can be renamed ({old!r} -> {new!r})")
    _RENAMED[old] = new
    _CLASSES.clear()
    _ENUMS.clear()


def _current(module: str) -> str:
    """Where ``module`` lives now: the longest renamed package it is in, re-rooted."""
    parts = module.split(".")
    for n in range(len(parts), 1, -1):
        new = _RENAMED.get(".".join(parts[:n]))
        if new is not None:
            return ".".join([new, *parts[n:]])
    return module


class CodecError(ValueError):
    """A value cannot be encoded, or a document cannot be decoded; the message says where."""


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _value_fields(cls: type) -> tuple[str, ...] | None:
    """The fields of a compiled value class (``Pose``, ``Rect``: immutable, built from its
    fields by keyword, saved as a dataclass is), or None."""
    names = getattr(cls, "VALUE_FIELDS", None)
    if isinstance(names, tuple) and all(isinstance(n, str) for n in names):
        return names
    return None


def encode(value: Any, where: str = "state") -> Any:
    """``value`` as JSON data (tagged objects for what JSON lacks); ``CodecError`` naming
    where a value cannot be saved. Worked out by ``_encode_fast`` (the same document); when
    that meets anything it cannot save, ``_encode`` walks again to name the place."""
    try:
        return _encode_fast(value)
    except _Unsaved:
        return _encode(value, where)


def _encode(value: Any, where: str = "state") -> Any:
    if isinstance(value, Enum):  # before str and int: StrEnum and IntEnum are both
        return {"$e": _name(type(value)), "v": value.value}
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CodecError(f"{where}: {value!r} is not a finite number")
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name), f"{where}.{f.name}")
                  for f in dataclasses.fields(value)}
        return {"$d": _name(type(value)), "f": fields}
    names = _value_fields(type(value))
    if names is not None:
        return {"$d": _name(type(value)),
                "f": {n: encode(getattr(value, n), f"{where}.{n}") for n in names}}
    if isinstance(value, list):
        return [_encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return {"$t": [_encode(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if isinstance(value, set | frozenset):
        items = [_encode(v, f"{where}{{}}") for v in value]
        return {"$s": sorted(items, key=repr)}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: _encode(v, f"{where}.{k}") for k, v in value.items()}
        return {"$m": [[_encode(k, where), _encode(v, f"{where}[{k!r}]")]
                       for k, v in value.items()]}
    raise CodecError(f"{where}: cannot save a {type(value).__name__}")


class _Unsaved(Exception):
    """Raised inside ``_encode_fast`` when a value cannot be saved (``_encode`` names it)."""


# How ``_encode`` treats each type, worked out once per type by the same tests in the same
# order: the kind, with the class's tag and field names where it has them.
_SELF, _FLOAT, _ENUM, _FIELDS, _LIST, _TUPLE, _SET, _DICT = range(8)
_KINDS: dict[type, tuple[int, str, tuple[str, ...]]] = {}


def _kind(t: type) -> tuple[int, str, tuple[str, ...]]:
    k = _KINDS.get(t)
    if k is not None:
        return k
    if issubclass(t, Enum):
        k = (_ENUM, _name(t), ())
    elif t is type(None) or issubclass(t, bool | str | int):
        k = (_SELF, "", ())
    elif issubclass(t, float):
        k = (_FLOAT, "", ())
    elif dataclasses.is_dataclass(t):
        k = (_FIELDS, _name(t), tuple(f.name for f in dataclasses.fields(t)))
    elif (names := _value_fields(t)) is not None:
        k = (_FIELDS, _name(t), names)
    elif issubclass(t, list):
        k = (_LIST, "", ())
    elif issubclass(t, tuple):
        k = (_TUPLE, "", ())
    elif issubclass(t, set | frozenset):
        k = (_SET, "", ())
    elif issubclass(t, dict):
        k = (_DICT, "", ())
    else:
        raise _Unsaved
    _KINDS[t] = k
    return k


_SAVED_AS_THEY_ARE = frozenset({str, int, bool, type(None)})
"""Types whose values are saved as they are (a float is checked to be finite first)."""


def _encode_fast(value: Any) -> Any:
    """``_encode`` without naming places: the same document, ``_Unsaved`` on anything it
    cannot save. A type is judged once (``_kind``); a dataclass's fields are read by name
    (a class's dataclass fields never change)."""
    t = type(value)
    if t is str or t is int or t is bool or value is None:
        return value
    kind, tag, names = _KINDS.get(t) or _kind(t)
    if kind == _SELF:
        return value
    if kind == _FLOAT:
        if not math.isfinite(value):
            raise _Unsaved
        return value
    if kind == _FIELDS:
        out: dict[str, Any] = {}
        for n in names:
            v = getattr(value, n)
            out[n] = v if type(v) in _SAVED_AS_THEY_ARE else _encode_fast(v)
        return {"$d": tag, "f": out}
    if kind == _LIST:
        return [v if type(v) in _SAVED_AS_THEY_ARE else _encode_fast(v) for v in value]
    if kind == _DICT:
        for k in value:
            if not isinstance(k, str) or k.startswith("$"):
                return {"$m": [[_encode_fast(k), _encode_fast(v)] for k, v in value.items()]}
        return {k: v if type(v) in _SAVED_AS_THEY_ARE else _encode_fast(v)
                for k, v in value.items()}
    if kind == _TUPLE:
        return {"$t": [_encode_fast(v) for v in value]}
    if kind == _ENUM:
        return {"$e": tag, "v": value.value}
    return {"$s": sorted([_encode_fast(v) for v in value], key=repr)}


def _lookup(name: Any, where: str) -> type:
    if not isinstance(name, str) or ":" not in name or not name.startswith(ALLOWED_PREFIX):
        raise CodecError(f"{where}: {name!r} is not a carnage class")
    module, qual = name.split(":", 1)
    if _RENAMED:
        module = _current(module)
    try:
        obj: Any = importlib.import_module(module)
        for part in qual.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise CodecError(f"{where}: no class {name!r}") from None
    if not isinstance(obj, type):
        raise CodecError(f"{where}: {name!r} is not a class")
    return obj


def decode(raw: Any, where: str = "state") -> Any:
    """The value ``encode`` saved as ``raw``; ``CodecError`` naming where the document is
    wrong. Worked out by ``_decode_fast`` (the same value); when that meets anything wrong,
    ``_decode`` walks again to name the place."""
    try:
        return _decode_fast(raw)
    except Exception:  # any failure: the walk that names places names it
        return _decode(raw, where)


def decode_exact(raw: Any) -> tuple[Any, bool]:
    """``decode(raw)``, and whether every value in ``raw`` is of exactly one of a JSON
    document's types (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``; no
    subclass, such as an enum member, taken as a plain value), as the quick walk takes them.
    Dict keys are not looked at. False too for a document naming a class by where it lived
    before its module moved (``module_renamed``): written again, it names it where it lives
    now. A restore keeps a state whose document is exact as that document's text
    (``kernel/game.py`` ``Checkpoint``)."""
    try:
        return _decode_fast(raw), True
    except Exception:  # any failure: the walk that names places names it
        return _decode(raw, "state"), False


_CLASSES: dict[str, tuple[type, tuple[str, ...] | None, frozenset[str]]] = {}
"""Class names of ``$d`` objects already looked up: the class, its value fields (or None for
a dataclass) and its field names. Cleared when a module is renamed."""


def _fields_class(name: Any) -> tuple[type, tuple[str, ...] | None, frozenset[str]]:
    """``_lookup`` of a ``$d`` class, remembered; raises on anything ``_decode`` refuses."""
    if type(name) is str:
        got = _CLASSES.get(name)
        if got is not None:
            return got
    cls = _lookup(name, "")
    if name != _name(cls):  # saved before a module moved: the walk that names places reads it
        raise CodecError("renamed")
    value_fields = _value_fields(cls)
    if value_fields is not None:
        names = frozenset(value_fields)
    elif dataclasses.is_dataclass(cls):
        names = frozenset(f.name for f in dataclasses.fields(cls))
    else:
        raise CodecError("not a dataclass")
    got = (cls, value_fields, names)
    _HAS_DICT[cls] = cls.__dictoffset__ != 0 and not any(
        "__slots__" in vars(c) for c in cls.__mro__[:-1])
    if isinstance(getattr(cls, "__mypyc_attrs__", None), tuple) and cls.__dictoffset__ == 0:
        hints = field_types(cls)
        numbers = [n for n in sorted(names) if hints.get(n) in (int, float)]
        # the values of those fields, as a tuple even for one (or none: a constant empty one)
        _NATIVE[cls] = itemgetter(*numbers, numbers[0]) if numbers else _no_numbers
    if type(name) is str:
        _CLASSES[name] = got
    return got


_ENUMS: dict[str, type[Enum]] = {}
"""Class names of ``$e`` values already looked up (cleared when a module is renamed)."""


def _enum_class(name: Any) -> type[Enum]:
    """``_lookup`` of a ``$e`` class, remembered; raises on anything ``_decode`` refuses."""
    if type(name) is str:
        got = _ENUMS.get(name)
        if got is not None:
            return got
    cls = _lookup(name, "")
    if not issubclass(cls, Enum):
        raise CodecError("not an enum")
    if name != _name(cls):  # saved before a module moved: the walk that names places reads it
        raise CodecError("renamed")
    if type(name) is str:
        _ENUMS[name] = cls
    return cls


_HAS_DICT: dict[type, bool] = {}
"""Whether a ``$d`` dataclass's instances keep their fields in a plain ``__dict__`` (no
``__slots__`` in its classes but ``object``, and not a compiled class, whose fields are
slots of its own): decoding then fills it in one update."""


_NATIVE: dict[type, Callable[[dict[str, Any]], tuple[Any, ...]]] = {}
"""The ``$d`` dataclasses compiled with mypyc (their fields are typed slots, set together by
the ``__setstate__`` mypyc gives them), each with what picks the values of its fields typed
``int`` or ``float`` out of its decoded fields: their setters would take a flag (``true``) as
a number, which the snapshot's type check refuses."""


def _no_numbers(values: dict[str, Any]) -> tuple[Any, ...]:
    return ()


_LEAVES = frozenset({str, int, float, bool, type(None)})
"""The types a document's leaves have (as ``json.loads`` makes them): decoded as they are."""


def _decode_fast(raw: Any) -> Any:
    """``_decode`` without naming places: the same value, or an exception (any kind) where
    ``_decode`` would raise ``CodecError``."""
    t = type(raw)
    if t is str or t is int or t is float or t is bool or raw is None:
        return raw
    if t is list:
        return [v if type(v) in _LEAVES else _decode_fast(v) for v in raw]
    if t is not dict:
        raise CodecError("not a plain value")
    if "$d" in raw:
        name = raw["$d"]
        got = _CLASSES.get(name) if type(name) is str else None
        cls, value_fields, names = got if got is not None else _fields_class(name)
        fields = raw.get("f")
        if type(fields) is not dict or fields.keys() != names:
            raise CodecError("fields")
        if value_fields is not None:
            return cls(**{k: v if type(v) in _LEAVES else _decode_fast(v)
                          for k, v in fields.items()})
        made: Any = cls  # built through its own __new__: a compiled class refuses object's
        obj = made.__new__(made)
        values = {k: v if type(v) in _LEAVES else _decode_fast(v) for k, v in fields.items()}
        if _HAS_DICT.get(cls) is True:  # as object.__setattr__ field by field, in one go
            obj.__dict__.update(values)
        elif (numbers := _NATIVE.get(cls)) is not None:
            # a compiled class: its setters check the types (``_decode`` words a refusal)
            obj.__setstate__(values)
            if bool in map(type, numbers(values)):
                raise CodecError("a flag for a number")
        else:
            for k, v in values.items():
                object.__setattr__(obj, k, v)
        return obj
    if "$e" in raw:
        enum = _enum_class(raw["$e"])
        value = raw.get("v")
        if type(value) in _LEAVES:  # a member by its value, as the enum's call finds it first
            member = enum._value2member_map_.get(value)
            if member is not None:
                return member
        return enum(value)
    if "$t" in raw:
        items = raw["$t"]
        if type(items) is not list:
            raise CodecError("not a list")
        return tuple([_decode_fast(v) for v in items])
    if "$s" in raw:
        items = raw["$s"]
        if type(items) is not list:
            raise CodecError("not a list")
        return {v if type(v) in _LEAVES else _decode_fast(v) for v in items}
    if "$m" in raw:
        pairs = raw["$m"]
        if type(pairs) is not list:
            raise CodecError("not a list")
        out = {}
        for pair in pairs:
            if type(pair) is not list or len(pair) != 2:
                raise CodecError("not a pair")
            out[_decode_fast(pair[0])] = _decode_fast(pair[1])
        return out
    return {k: v if type(v) in _LEAVES else _decode_fast(v) for k, v in raw.items()}


def _decode(raw: Any, where: str = "state") -> Any:
    if raw is None or isinstance(raw, bool | int | float | str):
        return raw
    if isinstance(raw, list):
        return [_decode(v, f"{where}[{i}]") for i, v in enumerate(raw)]
    if not isinstance(raw, dict):
        raise CodecError(f"{where}: unexpected {type(raw).__name__}")
    if "$d" in raw:
        cls = _lookup(raw["$d"], where)
        value_fields = _value_fields(cls)
        if not dataclasses.is_dataclass(cls) and value_fields is None:
            raise CodecError(f"{where}: {raw['$d']!r} is not a dataclass")
        fields = raw.get("f")
        if not isinstance(fields, dict):
            raise CodecError(f"{where}: a dataclass needs its fields")
        names = set(value_fields) if value_fields is not None else \
            {f.name for f in dataclasses.fields(cls)}
        if set(fields) != names:
            missing, extra = names - set(fields), set(fields) - names
            raise CodecError(f"{where}: {cls.__name__} fields do not match "
                             f"(missing {sorted(missing)}, unknown {sorted(extra)})")
        if value_fields is not None:
            try:
                return cls(**{k: _decode(v, f"{where}.{k}") for k, v in fields.items()})
            except (TypeError, ValueError) as e:
                raise CodecError(f"{where}: not a {cls.__name__}: {e}") from None
        made: Any = cls  # built through its own __new__: a compiled class refuses object's
        obj = made.__new__(made)
        for k, v in fields.items():
            value = _decode(v, f"{where}.{k}")
            try:
                object.__setattr__(obj, k, value)
            except (TypeError, ValueError, OverflowError):
                raise _refused(cls, k, value, f"{where}.{k}") from None
            if type(value) is bool and type(getattr(obj, k)) is not bool:
                raise _refused(cls, k, value, f"{where}.{k}")
        return obj
    if "$e" in raw:
        cls = _lookup(raw["$e"], where)
        if not issubclass(cls, Enum):
            raise CodecError(f"{where}: {raw['$e']!r} is not an enum")
        try:
            return cls(raw.get("v"))
        except ValueError:
            raise CodecError(f"{where}: {raw.get('v')!r} is not a {cls.__name__}") from None
    if "$t" in raw:
        return tuple(_decode(v, where) for v in _items(raw["$t"], where))
    if "$s" in raw:
        return {_decode(v, where) for v in _items(raw["$s"], where)}
    if "$m" in raw:
        out = {}
        for pair in _items(raw["$m"], where):
            if not isinstance(pair, list) or len(pair) != 2:
                raise CodecError(f"{where}: a mapping entry is a [key, value] pair")
            out[_decode(pair[0], where)] = _decode(pair[1], where)
        return out
    return {k: _decode(v, key_path(where, k)) for k, v in raw.items()}


def _refused(cls: type, name: str, value: Any, where: str) -> CodecError:
    """A compiled class's field refused ``value`` (its setter checks the type, and would make
    a flag a number): why, in the words of the snapshot's type check."""
    try:
        check_value(value, field_types(cls).get(name, Any), where)
    except Invalid as e:
        return CodecError(str(e))
    return CodecError(f"{where}: {short(value)} does not fit {cls.__name__}.{name}")


def _items(raw: Any, where: str) -> list[Any]:
    if not isinstance(raw, list):
        raise CodecError(f"{where}: expected a list")
    return raw
