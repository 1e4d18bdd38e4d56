"""``carnage odds ...``: exact odds of each ruleset's dice, one command per query the rulesets
declare (``Ruleset.queries``, ``kernel/queries.py``): ``carnage odds attack``, ``carnage odds
kart smash``, ``carnage odds devilsrun shoot`` ... A query's path is its command (``kart/smash``:
the group ``kart``, its command ``smash``) and each parameter an option (``evade_gear``:
``--evade-gear``); no game package is imported here.

Each command prints the query's report (Rich tables: count, P(= k), P(>= k), the exact
fraction; lines of text) or, with ``--json``, the same JSON as ``/api/odds/<path>``. A value
out of bounds or not among a choice's words, or one the rules cannot answer: one line on
stderr naming the option, exit 2.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from carnage.kernel.queries import (
    Block,
    Param,
    ParamValue,
    Query,
    QueryError,
    TextTable,
    offered,
    words_or,
)
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import RULESETS

HELP = "Exact odds of the game's dice."


def _fail(message: str) -> typer.Exit:
    typer.echo(f"odds: {message}", err=True)
    return typer.Exit(2)


def rich_table(t: TextTable) -> Table:
    """A report's table as a Rich table, numbers right-aligned."""
    table = Table(title=t.title)
    for c in t.columns:
        table.add_column(c, justify="right")
    for row in t.rows:
        table.add_row(*row)
    return table


def print_report(blocks: Sequence[Block], con: Console | None = None) -> None:
    """A query's report: each table drawn, each line printed."""
    con = con or Console()
    for b in blocks:
        con.print(rich_table(b) if isinstance(b, TextTable) else b)


def _flag_key(p: Param, flag: str) -> str:
    return f"{p.name}__{flag}"


def _option(p: Param) -> inspect.Parameter:
    """The typer option of ``p``: a whole number, a flag, or a word (checked by the query)."""
    kw = inspect.Parameter.KEYWORD_ONLY
    opt = typer.Option(p.option, help=p.help)
    if p.kind == "bool":
        return inspect.Parameter(p.name, kw, annotation=Annotated[bool, opt], default=False)
    if p.kind == "int":
        if p.required:
            return inspect.Parameter(p.name, kw, annotation=Annotated[int, opt])
        if p.default is None:
            return inspect.Parameter(p.name, kw, annotation=Annotated[int | None, opt],
                                     default=None)
        return inspect.Parameter(p.name, kw, annotation=Annotated[int, opt], default=p.default)
    if p.required:
        return inspect.Parameter(p.name, kw, annotation=Annotated[str, opt])
    # a choice with shorthand flags is read as None when not given, to see a disagreement
    default = None if p.flags else p.default
    return inspect.Parameter(p.name, kw, annotation=Annotated[str | None, opt], default=default)


def _given(q: Query, kw: Mapping[str, Any]) -> dict[str, ParamValue]:
    """What the options say of each parameter (a choice's flags read as its words)."""
    given: dict[str, ParamValue] = {}
    for p in q.params:
        value = kw[p.name]
        if p.flags:
            said = [(f"--{f.name}", f.word) for f in p.flags if kw[_flag_key(p, f.name)]]
            if value is not None:
                said.insert(0, (p.option, value))
            if len({w for _, w in said}) > 1:
                raise _fail(f"{' and '.join(o for o, _ in said)} disagree: the {p.name} is "
                            f"either {words_or([w for _, w in said])}, not both")
            value = said[0][1] if said else p.default
        given[p.name] = value
    return given


def command(q: Query) -> Callable[..., None]:
    """The command of query ``q``: its options, ``--json``, and the report or JSON."""

    def run(**kw: Any) -> None:
        as_json = bool(kw.pop("as_json"))
        try:
            values = q.check(_given(q, kw), spelling=lambda p: p.option)
            answer = q.run(values)
        except QueryError as e:
            raise _fail(str(e)) from None
        if as_json or q.report is None:
            typer.echo(json.dumps(dict(q.to_json(answer)), indent=None if as_json else 2))
            return
        print_report(q.report(answer, values))

    params = [_option(p) for p in q.params]
    kw = inspect.Parameter.KEYWORD_ONLY
    for p in q.params:
        params += [inspect.Parameter(_flag_key(p, f.name), kw, default=False, annotation=Annotated[
            bool, typer.Option(f"--{f.name}", help=f.help)]) for f in p.flags]
    params.append(inspect.Parameter("as_json", kw, default=False, annotation=Annotated[
        bool, typer.Option("--json", help="Print JSON instead of a table.")]))
    run.__signature__ = inspect.Signature(params, return_annotation=None)  # type: ignore[attr-defined]
    run.__doc__ = q.description or q.summary
    run.__name__ = q.path.replace("/", "_")
    return run


def odds_app(rulesets: Mapping[str, Ruleset] = RULESETS
             ) -> typer.Typer:
    """``carnage odds``: a command per odds query ``rulesets`` offer, grouped by its path
    (``kart/smash``: ``carnage odds kart smash``), each group's help naming the rulesets that
    offer what is in it."""
    root = typer.Typer(help=HELP, no_args_is_help=True)
    groups: dict[tuple[str, ...], typer.Typer] = {(): root}
    offering: dict[tuple[str, ...], list[str]] = {}
    found = offered(rulesets)
    for q, names in found:
        for depth in range(1, len(q.words)):
            offering.setdefault(q.words[:depth], [])
            offering[q.words[:depth]] += [n for n in names if n not in offering[q.words[:depth]]]
    for q, _ in found:
        words = q.words
        for depth in range(1, len(words)):
            prefix = words[:depth]
            if prefix not in groups:
                titles = [rulesets[n].title for n in offering[prefix]]
                groups[prefix] = typer.Typer(help=f"{words_or(titles)}: exact odds of its dice.",
                                             no_args_is_help=True)
                groups[prefix[:-1]].add_typer(groups[prefix], name=prefix[-1])
        groups[words[:-1]].command(words[-1], short_help=q.summary)(command(q))
    return root


app = odds_app()
"""``carnage odds``, from the registry's rulesets."""
