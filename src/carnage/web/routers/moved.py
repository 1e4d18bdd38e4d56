"""Addresses a ruleset's games had before they took the one path every ruleset's games take
(``TableOffer.moved``), kept as permanent redirects: a 308 keeps the method and the body, so an
old client's decisions still reach the game. No game package is imported here."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from carnage.kernel.ruleset import MovedUrl, Ruleset

MOVED = "Moved permanently: every ruleset's games are at /api/games (a 308 keeps the method)."
_PATH = re.compile(r"^(/([a-z0-9.-]+|\{[a-z_]+\}))+$")


def _target(m: MovedUrl) -> Callable[..., RedirectResponse]:
    def moved(request: Request) -> RedirectResponse:
        new = m.new.format(**request.path_params)
        query = request.url.query
        if query and "?" not in new:
            new += f"?{query}"
        return RedirectResponse(new, status_code=308)

    return moved


def moved_router(rulesets: Iterable[Ruleset]) -> APIRouter:
    """A 308 redirect for each address the ``rulesets`` declare moved; ``ValueError`` naming
    the ruleset if an old address is not a plain path or the new one names a part the old
    one has not."""
    out = APIRouter(include_in_schema=False)
    for r in rulesets:
        for m in r.table.moved:
            parts = set(re.findall(r"\{([a-z_]+)\}", m.old))
            wanted = set(re.findall(r"\{([a-z_]+)\}", m.new))
            if not _PATH.match(m.old) or not wanted <= parts:
                raise ValueError(f"ruleset {r.name!r}: moved address {m.old!r} -> {m.new!r} "
                                 "is not a plain path with the parts its target names")
            kw: dict[str, Any] = {"summary": f"Moved to {m.new}", "description": MOVED,
                                  "status_code": 308}
            out.add_api_route(m.old, _target(m), methods=list(m.methods), **kw)
    return out
