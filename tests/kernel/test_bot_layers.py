"""The bots, the scenarios and the rulesets import one way: no import cycle (lazy imports
counted) runs between the generic bots (``carnage.ai``), a game package and the registry
(``carnage.rulesets``); scenarios never import the heuristic bot; the bot never imports a
scenario."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
CONTAINERS = {"games", "rulesets"}
WATCHED = ("carnage.ai", "carnage.rulesets", "carnage.games.kart", "carnage.games.legacy.ruleset",
           "carnage.games.legacy.rules", "carnage.games.refuelled.ai",
           "carnage.games.refuelled.scenarios", "carnage.games.refuelled.engine",
           "carnage.games.refuelled.ruleset", "carnage.games.refuelled.setup")
"""Modules that must sit in no cycle crossing a package boundary."""


def _modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "carnage").rglob("*.py"):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _edges(mods: dict[str, Path]) -> dict[str, set[str]]:
    def resolve(name: str) -> str | None:
        while name:
            if name in mods:
                return name
            name = name.rpartition(".")[0]
        return None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")
                    up = up[: len(up) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            for t in targets:
                r = resolve(t)
                if r and r != m:
                    edges[m].add(r)
                    break
    return edges


def _unit(m: str) -> str:
    parts = m.split(".")
    return ".".join(parts[:3] if len(parts) >= 3 and parts[1] in CONTAINERS else parts[:2])


def _cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def test_no_cycle_across_packages_runs_through_the_bots_scenarios_or_rulesets() -> None:
    edges = _edges(_modules())
    bad = []
    for comp in _cycles(edges):
        if len({_unit(m) for m in comp}) > 1:
            bad += sorted(m for m in comp if m.startswith(WATCHED))
    assert bad == []


def test_the_bot_and_the_scenarios_do_not_import_each_other() -> None:
    edges = _edges(_modules())
    bot = "carnage.games.refuelled.ai"
    scenarios = "carnage.games.refuelled.scenarios"
    assert sorted((m, t) for m, ts in edges.items() for t in ts
                  if (m.startswith(scenarios) and t.startswith(bot))
                  or (m.startswith(bot) and t.startswith(scenarios))) == []
