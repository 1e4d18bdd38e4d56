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
from enum import Enum
from typing import Any

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
        return [encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return {"$t": [encode(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if isinstance(value, set | frozenset):
        items = [encode(v, f"{where}{{}}") for v in value]
        return {"$s": sorted(items, key=repr)}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: encode(v, f"{where}.{k}") for k, v in value.items()}
        return {"$m": [[encode(k, where), encode(v, f"{where}[{k!r}]")]
                       for k, v in value.items()]}
    raise CodecError(f"{where}: cannot save a {type(value).__name__}")


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
    if raw is None or isinstance(raw, bool | int | float | str):
        return raw
    if isinstance(raw, list):
        return [decode(v, f"{where}[{i}]") for i, v in enumerate(raw)]
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
                return cls(**{k: decode(v, f"{where}.{k}") for k, v in fields.items()})
            except (TypeError, ValueError) as e:
                raise CodecError(f"{where}: not a {cls.__name__}: {e}") from None
        obj: Any = object.__new__(cls)
        for k, v in fields.items():
            object.__setattr__(obj, k, decode(v, f"{where}.{k}"))
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
        return tuple(decode(v, where) for v in _items(raw["$t"], where))
    if "$s" in raw:
        return {decode(v, where) for v in _items(raw["$s"], where)}
    if "$m" in raw:
        out = {}
        for pair in _items(raw["$m"], where):
            if not isinstance(pair, list) or len(pair) != 2:
                raise CodecError(f"{where}: a mapping entry is a [key, value] pair")
            out[decode(pair[0], where)] = decode(pair[1], where)
        return out
    return {k: decode(v, f"{where}.{k}") for k, v in raw.items()}


def _items(raw: Any, where: str) -> list[Any]:
    if not isinstance(raw, list):
        raise CodecError(f"{where}: expected a list")
    return raw
