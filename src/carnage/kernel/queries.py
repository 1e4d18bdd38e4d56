"""Queries a ruleset answers outside a game: its odds calculator today (``carnage odds ...``,
``/api/odds/...``), and any other per-ruleset tool declared the same way later.

A ``Query`` is declared by the game package that knows the rules: a path (``attack``,
``kart/attack``, ``devilsrun/shoot``), a summary in plain words, typed parameters (``Param``:
a whole number with bounds, a yes/no flag, a choice among words) and the function that answers.
The generic layers build one command and one route per query from these declarations (the
command line's ``--dice``, the web's ``?dice=``), so a ruleset's queries are found through its
``Ruleset.queries`` only; no layer above the kernel imports a game package to offer them.

``Query.check`` is the one check of a query's input every channel runs (the web's schema
publishes the same bounds): a value out of bounds or not among the words raises
``QueryError`` naming the parameter as the caller spelled it. The answer itself may refuse
what only the rules can judge, with a ``QueryError`` (``kernel.odds.OddsError`` is one).
"""

from __future__ import annotations

import inspect
import keyword
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

ParamValue = int | bool | str | None
"""What a parameter holds once read: a whole number, a flag, a word or a text, or nothing
(optional)."""
ParamKind = Literal["int", "bool", "choice", "text"]
Args = Mapping[str, ParamValue]
"""A query's checked values by parameter name."""

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_SEGMENT = re.compile(r"^[a-z][a-z0-9-]*$")
RESERVED = frozenset({"json", "games"})
"""Names no parameter or first path segment may take (the command line's ``--json``; the
web's ``/api/odds/games/{gid}/pending``)."""


class QueryError(ValueError):
    """A query refused: one sentence naming the parameter or what the rules cannot answer."""


def words_or(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(words)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


@dataclass(frozen=True)
class CliFlag:
    """A command-line shorthand for one word of a choice (``--trivial`` for
    ``--manoeuvre trivial``); the web has only the choice."""

    name: str
    """The flag without its dashes (``trivial``)."""
    word: str
    """The word it chooses."""
    help: str


@dataclass(frozen=True)
class Param:
    """One parameter of a query. Its ``name`` is the web's query parameter and the answer's
    keyword; the command line spells it ``--name-with-dashes``."""

    name: str
    kind: ParamKind
    help: str
    """What it is, in plain words (the command's ``--help``, the schema's description)."""
    default: ParamValue = None
    required: bool = False
    """No default: the caller must give it."""
    low: int | None = None
    high: int | None = None
    """A whole number's bounds, both included (None: the answer checks it)."""
    words: tuple[str, ...] = ()
    """A choice's words, in the order the schema lists them."""
    flags: tuple[CliFlag, ...] = ()
    """Command-line shorthands for words of a choice."""
    max_length: int | None = None
    """A text's most characters (a text must have one)."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name) or self.name in RESERVED or keyword.iskeyword(self.name):
            raise ValueError(f"parameter name {self.name!r} must be lower_snake_case, not a "
                             f"Python keyword and not one of {sorted(RESERVED)}")
        if self.kind == "choice" and not self.words:
            raise ValueError(f"choice {self.name!r} has no words")
        if self.kind != "choice" and (self.words or self.flags):
            raise ValueError(f"{self.name!r}: only a choice has words and flags")
        if (self.kind == "text") != (self.max_length is not None):
            raise ValueError(f"{self.name!r}: a text, and only a text, has a max_length")
        if self.required and self.default is not None:
            raise ValueError(f"{self.name!r}: a required parameter has no default")
        for f in self.flags:
            if f.word not in self.words:
                raise ValueError(f"{self.name!r}: flag {f.name!r} names no word of it")

    @property
    def option(self) -> str:
        """How the command line spells it (``--evade-gear``)."""
        return "--" + self.name.replace("_", "-")

    def check(self, value: ParamValue, spelled: str | None = None) -> ParamValue:
        """``value`` if this parameter accepts it; ``QueryError`` naming it (as ``spelled``,
        by default its name) and what it accepts."""
        name = spelled or self.name
        if value is None:
            if self.required:
                raise QueryError(f"{name} is required")
            return None
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise QueryError(f"{name} must be true or false, not {value!r}")
            return value
        if self.kind == "text":
            if not isinstance(value, str):
                raise QueryError(f"{name} must be a text, not {value!r}")
            if self.max_length is not None and len(value) > self.max_length:
                raise QueryError(f"{name} must be at most {self.max_length} characters long, "
                                 f"not {len(value)}")
            if self.required and not value.strip():
                raise QueryError(f"{name} must not be blank")
            return value
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.words:
                raise QueryError(f"{name} must be {words_or(self.words)}, not {value!r}")
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise QueryError(f"{name} must be a whole number, not {value!r}")
        if self.low is not None and self.high is not None:
            if not self.low <= value <= self.high:
                raise QueryError(f"{name} must be between {self.low} and {self.high}, "
                                 f"not {value}")
        elif self.low is not None and value < self.low:
            raise QueryError(f"{name} must be at least {self.low}, not {value}")
        elif self.high is not None and value > self.high:
            raise QueryError(f"{name} must be at most {self.high}, not {value}")
        return value

    def to_json(self) -> dict[str, Any]:
        """What a listing shows of it (``GET /api/odds``)."""
        out: dict[str, Any] = {"name": self.name, "type": self.kind, "help": self.help,
                               "required": self.required, "default": self.default}
        if self.kind == "int":
            out["min"], out["max"] = self.low, self.high
        if self.kind == "choice":
            out["choices"] = list(self.words)
        if self.kind == "text":
            out["max_length"] = self.max_length
        return out


def int_param(name: str, help: str, *, low: int | None = None, high: int | None = None,
              default: int | None = None, required: bool = False) -> Param:
    """A whole number from ``low`` to ``high`` (``default`` None and not ``required``:
    optional)."""
    return Param(name, "int", help, default=default, required=required, low=low, high=high)


def flag_param(name: str, help: str) -> Param:
    """A yes/no switch, off unless given."""
    return Param(name, "bool", help, default=False)


def choice_param(name: str, help: str, words: Sequence[str], *, default: str | None = None,
                 flags: Sequence[CliFlag] = ()) -> Param:
    """One of ``words`` (``default`` None: optional, unless there is none to choose)."""
    return Param(name, "choice", help, default=default, words=tuple(words),
                 flags=tuple(flags))


def text_param(name: str, help: str, *, max_length: int, required: bool = False) -> Param:
    """A text of at most ``max_length`` characters (``required``: given and not blank;
    otherwise optional)."""
    return Param(name, "text", help, required=required, max_length=max_length)


def as_is(answer: Any) -> Any:
    """``Query.to_json`` of an answer that is already its JSON."""
    return answer


def own_json(answer: Any) -> Any:
    """``Query.to_json`` of an answer with its own ``to_json()``."""
    return answer.to_json()


@dataclass(frozen=True)
class TextTable:
    """A table in a report, drawn by whoever shows it (the command line: a Rich table)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = str | TextTable
"""One piece of a report: a line of text or a table."""


@dataclass(frozen=True)
class Query:
    """One query a ruleset answers: ``answer(**values)`` with every parameter's checked
    value (its default where not given), ``to_json`` of that is what the web route and
    ``--json`` return, and ``report`` what the command line prints."""

    path: str
    """Its address: ``attack``, ``kart/attack`` (``carnage odds kart attack``,
    ``/api/odds/kart/attack``)."""
    summary: str
    """One line in plain words (the route's summary, the listing's title)."""
    params: tuple[Param, ...]
    answer: Callable[..., Any] = field(compare=False)
    """``answer(**values)`` -> the answer; ``QueryError`` for what the rules cannot answer."""
    to_json: Callable[[Any], Mapping[str, Any]] = field(compare=False)
    """The answer as the JSON the route returns."""
    report: Callable[[Any, Args], Sequence[Block]] | None = field(default=None, compare=False)
    """``report(answer, values)`` -> the answer in words and tables (None: its JSON)."""
    description: str = ""
    """More, in plain words, with the pages or rule ids (the command's ``--help``)."""
    tool: str = "odds"
    """Which tool offers it (``odds``: ``carnage odds``, ``/api/odds/<path>``; any other:
    ``/api/<tool>/<path>``, e.g. Legacy's vehicle generator, ``/api/legacy/vehicle``)."""

    def __post_init__(self) -> None:
        segments = self.path.split("/")
        if not all(_SEGMENT.match(s) for s in segments) or segments[0] in RESERVED:
            raise ValueError(f"query path {self.path!r}: lower-case words joined by '/', "
                             f"not starting with one of {sorted(RESERVED)}")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"query {self.path!r} repeats a parameter name")
        accepted = inspect.signature(self.answer).parameters
        if not any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
            missing = set(names) - set(accepted)
            if missing:
                raise ValueError(f"query {self.path!r}: its answer takes no "
                                 f"{', '.join(sorted(missing))}")

    @property
    def words(self) -> tuple[str, ...]:
        """Its path's segments (``("kart", "attack")``)."""
        return tuple(self.path.split("/"))

    def check(self, given: Mapping[str, ParamValue], spelling: Callable[[Param], str] | None
              = None) -> dict[str, ParamValue]:
        """Every parameter's value: given (checked) or its default; ``QueryError`` naming
        the first wrong one (as ``spelling(param)`` names it, by default its name) or one it
        does not take."""
        unknown = set(given) - {p.name for p in self.params}
        if unknown:
            raise QueryError(f"{self.path} takes no {', '.join(sorted(unknown))}")
        out: dict[str, ParamValue] = {}
        for p in self.params:
            spelled = spelling(p) if spelling is not None else p.name
            out[p.name] = p.check(given.get(p.name, p.default), spelled)
        return out

    def run(self, values: Mapping[str, ParamValue]) -> Any:
        """The answer to already checked ``values``."""
        return self.answer(**values)

    def json(self, given: Mapping[str, ParamValue]) -> dict[str, Any]:
        """The answer to ``given`` as JSON (checked first)."""
        return dict(self.to_json(self.run(self.check(given))))

    def to_listing(self) -> dict[str, Any]:
        """What a listing shows of it: path, summary, description and parameters."""
        return {"path": self.path, "summary": self.summary, "description": self.description,
                "params": [p.to_json() for p in self.params]}


class Offering(Protocol):
    """What offers queries (a ``Ruleset``)."""

    @property
    def queries(self) -> tuple[Query, ...]: ...


def offered(rulesets: Mapping[str, Offering], tool: str = "odds"
            ) -> list[tuple[Query, tuple[str, ...]]]:
    """Every query of ``tool`` the ``rulesets`` offer (``Ruleset.queries``) once, in the
    order first offered, with the names of the rulesets that offer it (an overlay offering
    its parent's query does not repeat it); a path two rulesets declare differently is an
    error (``ValueError`` naming both)."""
    found: dict[str, tuple[Query, list[str]]] = {}
    for name, ruleset in rulesets.items():
        for q in ruleset.queries:
            if q.tool != tool:
                continue
            seen = found.get(q.path)
            if seen is None:
                found[q.path] = (q, [name])
            elif seen[0] is q or (seen[0] == q and seen[0].answer is q.answer):
                seen[1].append(name)
            else:
                raise ValueError(f"{tool} query {q.path!r} is declared differently by "
                                 f"{seen[1][0]} and {name}")
    return [(q, tuple(names)) for q, names in found.values()]
