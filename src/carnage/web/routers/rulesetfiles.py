"""What each ruleset ships for the browser, served from what it declares (``Ruleset.table``):
its board's files and its own pages. web/ names no game: it reads the registry.

``GET /static/games/<key>/<file>``: a file of a game package's ``WebFiles`` folder (the board's
markup, module and styles, a page's scripts); ``GET /rulesets/<ruleset>/<path>``: a page the
ruleset offers (``RulesetPage``); each of a page's ``aliases`` redirects to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse

from carnage.kernel.ruleset import BoardAssets, Ruleset, RulesetPage, TableOffer, WebFiles
from carnage.rulesets import RULESETS
from carnage.web.routers.pages import MISSING
from carnage.web.schemas import BoardFiles, RulesetPageLink
from carnage.web.sessions import ApiError

FILES_URL = "/static/games"
"""Where a ``WebFiles`` folder is served: ``/static/games/<key>/<file>``."""
PAGES_URL = "/rulesets"
"""Where a ruleset's pages are served: ``/rulesets/<ruleset>/<path>``."""
NAME = re.compile(r"^[a-z][a-z0-9-]*$")
FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
MEDIA = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
         ".json": "application/json", ".png": "image/png"}
"""The content type of a served file by its suffix (others: by the standard guess)."""


def declared_files(rulesets: Iterable[Ruleset]) -> dict[str, WebFiles]:
    """Every ``WebFiles`` folder the rulesets declare, by key; ``ValueError`` naming the
    ruleset whose declaration is wrong (a bad key, two folders under one key, a declared file
    that is not a plain file name)."""
    found: dict[str, WebFiles] = {}
    for r in rulesets:
        offer = r.table
        uses: list[tuple[WebFiles, tuple[str, ...]]] = []
        if offer.board is not None:
            b = offer.board
            uses.append((b.files, (b.markup, b.module, *b.styles)))
        uses += [(p.files, (p.file,)) for p in offer.pages]
        for files, names in uses:
            if not NAME.match(files.key):
                raise ValueError(f"ruleset {r.name!r}: web files key {files.key!r} is not "
                                 "lower-case letters, digits and hyphens")
            bad = [n for n in names if not FILE.match(n)]
            if bad:
                raise ValueError(f"ruleset {r.name!r}: {bad[0]!r} is not a file name in its "
                                 f"web files {files.key!r}")
            known = found.setdefault(files.key, files)
            if known.directory != files.directory:
                raise ValueError(f"ruleset {r.name!r}: web files {files.key!r} are both "
                                 f"{known.directory} and {files.directory}")
        for p in offer.pages:
            if not NAME.match(p.path):
                raise ValueError(f"ruleset {r.name!r}: page path {p.path!r} is not lower-case "
                                 "letters, digits and hyphens")
    return found


def file_url(files: WebFiles, name: str) -> str:
    return f"{FILES_URL}/{files.key}/{name}"


def page_url(ruleset: str, page: RulesetPage) -> str:
    return f"{PAGES_URL}/{ruleset}/{page.path}"


def board_files(offer: TableOffer) -> BoardFiles | None:
    """The URLs of the board's files (None: the ruleset has no table in the browser)."""
    b: BoardAssets | None = offer.board
    if b is None:
        return None
    return BoardFiles(markup=file_url(b.files, b.markup), module=file_url(b.files, b.module),
                      styles=[file_url(b.files, s) for s in b.styles])


def page_links(r: Ruleset) -> list[RulesetPageLink]:
    return [RulesetPageLink(url=page_url(r.name, p), title=p.title) for p in r.table.pages]


FILES: Mapping[str, WebFiles] = declared_files(RULESETS.values())
"""The registry's browser files by key (checked when the web app is imported)."""

router = APIRouter(tags=["pages"])


def _file(files: WebFiles, name: str, what: str = "") -> FileResponse:
    """The file ``name`` of ``files``; a 404 naming it if it is not a plain relative file
    name, or not there."""
    parts = PurePosixPath(name).parts
    if not parts or any(not FILE.match(p) for p in parts):
        raise ApiError(404, f"{what}{name!r} is not a file name")
    root = files.directory.resolve()
    path = (root / Path(*parts)).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise ApiError(404, f"{what}no file {name!r} in {files.key}'s web files")
    return FileResponse(path, media_type=MEDIA.get(path.suffix.lower()))


@router.get(FILES_URL + "/{key}/{name:path}", response_class=FileResponse, responses=MISSING,
            include_in_schema=False)
def game_file(key: str, name: str) -> FileResponse:
    """A file a game package ships for the browser (its ``WebFiles``)."""
    files = FILES.get(key)
    if files is None:
        known = ", ".join(sorted(FILES))
        raise ApiError(404, f"no web files called {key!r} (known: {known})")
    return _file(files, name)


@router.get(PAGES_URL + "/{ruleset}/{path}", response_class=FileResponse, responses=MISSING,
            summary="A page of a ruleset's own (GET /api/rulesets lists them)")
def ruleset_page(ruleset: str, path: str) -> FileResponse:
    r = RULESETS.get(ruleset)
    if r is None:
        raise ApiError(404, f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
    for p in r.table.pages:
        if p.path == path:
            return _file(p.files, p.file, f"{r.title}'s page {path!r}: ")
    known = ", ".join(p.path for p in r.table.pages) or "none"
    raise ApiError(404, f"{r.title} has no page {path!r} (its pages: {known})")


def alias_router(rulesets: Iterable[Ruleset], taken: Iterable[str]) -> APIRouter:
    """308 redirects from each declared page's ``aliases`` to the page; ``ValueError`` if an
    alias is not a plain path or is a path the app already answers (``taken``)."""
    out = APIRouter(include_in_schema=False)
    used = set(taken)
    for r in rulesets:
        for p in r.table.pages:
            target = page_url(r.name, p)
            for alias in p.aliases:
                if not re.match(r"^(/[a-z0-9-]+)+$", alias) or alias in used:
                    raise ValueError(f"ruleset {r.name!r}: page alias {alias!r} is not a free "
                                     "plain path")
                used.add(alias)
                out.add_api_route(alias, _redirect(target), methods=["GET"],
                                  summary=f"Moved to {target}")
    return out


def _redirect(target: str) -> Any:
    def moved() -> RedirectResponse:
        return RedirectResponse(target, status_code=308)

    return moved
