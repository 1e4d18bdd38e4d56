"""The field types a compiled state module declares (``validate.declare_field_types``) are the
ones its source annotates: the snapshot's type check reads the table, because a dataclass
compiled with mypyc keeps only erased annotations (``str | None`` -> ``type``)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import typing
from typing import Any

import pytest

from carnage import compiled
from carnage.kernel import validate

DECLARING = ("carnage.kernel.base_state", "carnage.games.refuelled.engine.state")


def _source_annotations(module_name: str) -> dict[str, dict[str, Any]]:
    """Class name -> field -> the annotation written in the module's source, evaluated in the
    module's namespace (what ``typing.get_type_hints`` reads from a plain Python class)."""
    module = importlib.import_module(module_name)
    tree = ast.parse(compiled.source(module_name).read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            fields = {}
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    text = ast.unparse(stmt.annotation)
                    if not text.startswith("ClassVar"):
                        fields[stmt.target.id] = eval(text, vars(module))
            out[node.name] = fields
    return out


@pytest.mark.parametrize("module_name", DECLARING)
def test_each_declared_table_is_the_source_annotations(module_name):
    module = importlib.import_module(module_name)
    written = _source_annotations(module_name)
    table = module.FIELD_TYPES
    assert {cls.__name__ for cls in table} == {
        name for name, cls in vars(module).items()
        if isinstance(cls, type) and dataclasses.is_dataclass(cls)
        and cls.__module__ == module_name}
    for cls, hints in table.items():
        assert hints == written[cls.__name__], cls.__name__
        own = {f.name for f in dataclasses.fields(cls)} - {
            f.name for base in cls.__mro__[1:] if dataclasses.is_dataclass(base)
            for f in dataclasses.fields(base)}
        assert set(hints) == own, cls.__name__


@pytest.mark.parametrize("module_name", DECLARING)
def test_the_table_gives_the_checks_the_annotations_gave(module_name):
    module = importlib.import_module(module_name)
    if str(module.__file__).endswith(".py"):  # plain Python: the annotations are whole
        for cls in module.FIELD_TYPES:
            declared = validate.field_types(cls)
            hints = typing.get_type_hints(cls)
            assert set(declared) == set(hints)
            for name, tp in hints.items():
                # the recursive JsonValue alias: get_type_hints unfolds it one level
                assert validate.checker(declared[name]) is validate.checker(tp) or \
                    "JsonValue" in str(declared[name]), (cls.__name__, name)
    else:  # compiled: mypyc erased them, which is why the table is there
        vehicle_or_kernel = next(iter(module.FIELD_TYPES))
        erased = typing.get_type_hints(vehicle_or_kernel)
        assert erased != validate.field_types(vehicle_or_kernel)


def test_a_declared_class_reads_its_table_not_its_annotations():
    @dataclasses.dataclass
    class Box:
        size: int

    validate.declare_field_types({Box: {"size": str}})  # a table that differs on purpose
    validate.check_value(Box("wide"), Box)
    with pytest.raises(validate.Invalid, match=r"state\.size: expected text"):
        validate.check_value(Box(3), Box)


def test_a_table_missing_a_field_is_refused():
    @dataclasses.dataclass
    class Pair:
        a: int
        b: int

    validate.declare_field_types({Pair: {"a": int}})
    with pytest.raises(TypeError, match=r"Pair: declared field types do not match.*'b'"):
        validate.check_value(Pair(1, 2), Pair)


def test_a_subclass_of_a_declared_class_must_declare_its_own():
    @dataclasses.dataclass
    class Base:
        a: int

    @dataclasses.dataclass
    class Sub(Base):
        b: str = ""

    validate.declare_field_types({Base: {"a": int}})
    with pytest.raises(TypeError, match="Sub: a base declares its field types"):
        validate.check_value(Sub(1, "x"), Sub)
    validate.declare_field_types({Sub: {"b": str}})
    validate.check_value(Sub(1, "x"), Sub)
    with pytest.raises(validate.Invalid, match=r"state\.a: expected a whole number"):
        validate.check_value(Sub("1", "x"), Sub)  # the base's declared type holds
