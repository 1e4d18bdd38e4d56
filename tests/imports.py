"""The import graph of ``src/carnage`` for the layers tests: every import counted, lazy ones and
those for the type checker too. A unit is ``carnage.<package>``, and under ``carnage.games``
each game (``carnage.games.refuelled``, ``...kart``, ``...legacy``, ``...devilsrun``); a cycle
inside one unit is that unit's own business, a cycle between units is a tangle."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
CONTAINERS = {"games"}


def modules(root: Path = SRC) -> dict[str, Path]:
    out = {}
    for p in (root / "carnage").rglob("*.py"):
        parts = list(p.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def edges_of(mods: dict[str, Path]) -> dict[str, set[str]]:
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
                    up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            for t in targets:
                r = resolve(t)
                if r and r != m:
                    edges[m].add(r)
                    break
    return edges


def unit(module: str) -> str:
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] in CONTAINERS:
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def crossing_cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components (Tarjan, iterative) that span more than one unit."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out: list[set[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
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
                if len({unit(c) for c in comp}) > 1:
                    out.append(comp)
    return out
