"""Each game's browser files live in its package and web/ serves them from what its ruleset
declares (``Ruleset.table.board``, ``Ruleset.table.pages``): ``/static/games/<key>/<file>``,
``/rulesets/<ruleset>/<page>``, the page's old URLs redirected; ``/api/rulesets`` says where
they are; the wheel ships them."""

from __future__ import annotations

import dataclasses
import fnmatch
import re
import tomllib
from pathlib import Path

import pytest
from tests.web.test_api_support import TestClient, new_client

import carnage
import carnage.web
from carnage.kernel.ruleset import BoardAssets, RulesetPage, TableOffer, WebFiles
from carnage.rulesets import RULESETS
from carnage.web.routers.rulesetfiles import FILES, alias_router, declared_files

ROOT = Path(__file__).resolve().parents[2]
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return new_client(Path(tmp_path_factory.mktemp("rulesetfiles")))


def _board_files() -> list[tuple[str, str]]:
    out = []
    for name, r in RULESETS.items():
        b = r.table.board
        assert b is not None, f"{name} declares no board"
        out += [(name, f) for f in (b.markup, b.module, *b.styles)]
    return out


@pytest.mark.parametrize("name, file", _board_files())
def test_every_declared_board_file_is_served_with_its_type(client: TestClient, name: str,
                                                          file: str) -> None:
    board = RULESETS[name].table.board
    assert board is not None
    r = client.get(f"/static/games/{board.files.key}/{file}")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith(TYPES[Path(file).suffix])
    assert r.content == (board.files.directory / file).read_bytes()


def test_the_registry_says_where_each_board_and_page_is(client: TestClient) -> None:
    listed = {r["name"]: r for r in client.get("/api/rulesets").json()}
    for name, r in RULESETS.items():
        b = r.table.board
        assert b is not None
        base = f"/static/games/{b.files.key}/"
        assert listed[name]["board"] == {"markup": base + b.markup, "module": base + b.module,
                                         "styles": [base + s for s in b.styles]}
        assert listed[name]["pages"] == [{"url": f"/rulesets/{name}/{p.path}", "title": p.title}
                                         for p in r.table.pages]
        assert listed[name]["replay"] is (r.table.view is None)
    # The overlays draw with their parent's board: the same files, not copies.
    for name, r in RULESETS.items():
        if r.parent is not None:
            assert listed[name]["board"] == listed[r.parent]["board"]
    assert listed["devils-run"]["replay"] is False and listed["refuelled"]["replay"] is True


def test_every_declared_page_is_served_and_its_aliases_redirect(client: TestClient) -> None:
    pages = [(name, p) for name, r in RULESETS.items() for p in r.table.pages]
    assert pages, "no ruleset declares a page"
    for name, p in pages:
        r = client.get(f"/rulesets/{name}/{p.path}")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert r.text == (p.files.directory / p.file).read_text(encoding="utf-8")
        for alias in p.aliases:
            moved = client.get(alias, follow_redirects=False)
            assert moved.status_code == 308
            assert moved.headers["location"] == f"/rulesets/{name}/{p.path}"


def test_a_page_loads_its_scripts_from_its_game_package(client: TestClient) -> None:
    page = client.get("/rulesets/legacy/generator").text
    assert '<script type="module" src="/static/games/legacy/generator.js">' in page
    js = client.get("/static/games/legacy/generator.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")


@pytest.mark.parametrize("url, detail", [
    ("/static/games/devilsrun/missing.js", "no file 'missing.js' in devilsrun's web files"),
    ("/static/games/chess/table.js",
     f"no web files called 'chess' (known: {', '.join(sorted(FILES))})"),
    ("/static/games/refuelled/%2e%2e/ruleset.py", "'../ruleset.py' is not a file name"),
    ("/static/games/refuelled/.hidden", "'.hidden' is not a file name"),
    ("/rulesets/legacy/nowhere",
     "Gaslands: Legacy has no page 'nowhere' (its pages: generator)"),
    ("/rulesets/refuelled/generator",
     "Gaslands: Refuelled has no page 'generator' (its pages: none)"),
    ("/rulesets/chess/generator",
     f"unknown ruleset 'chess' (known: {', '.join(RULESETS)})"),
])
def test_a_missing_file_or_page_is_a_clear_404(client: TestClient, url: str,
                                               detail: str) -> None:
    r = client.get(url)
    assert r.status_code == 404 and r.json() == {"detail": detail}


def test_the_old_web_copies_are_gone(client: TestClient) -> None:
    static = Path(carnage.web.__file__).parent / "static"
    assert not (static / "tables").exists() and not (static / "js" / "tables").exists()
    assert not (static / "legacy.html").exists() and not (static / "css" / "devilsrun.css").exists()
    for url in ("/static/tables/refuelled.html", "/static/js/tables/devilsrun.js",
                "/static/js/legacy.js", "/static/css/devilsrun.css"):
        assert client.get(url).status_code == 404, url


def test_web_static_names_no_game() -> None:
    """The generic pages and modules reach a game's board, pages and scenario tables through
    the registry: none of them names a ruleset or links a game's page by hand (the odds page's
    hand-made panels aside)."""
    static = Path(carnage.web.__file__).parent / "static"
    names = list(RULESETS)
    for path in sorted(static.rglob("*")):
        if path.suffix not in (".js", ".html") or path.name.startswith("odds"):
            continue  # the odds calculator is its own page
        text = path.read_text(encoding="utf-8")
        for name in names:
            for quoted in (f'"{name}"', f"'{name}'", f'href="/{name}"'):
                assert quoted not in text, f"{path.relative_to(static)} names {quoted}"
        assert 'href="/legacy"' not in text, path


def test_a_wrong_declaration_is_refused_naming_the_ruleset() -> None:
    r = RULESETS["devils-run"]
    other = WebFiles("refuelled", Path("/elsewhere"))
    wrong = dataclasses.replace(r, table=dataclasses.replace(
        r.table, board=BoardAssets(other, markup="table.html", module="table.js")))
    with pytest.raises(ValueError, match="ruleset 'devils-run': web files 'refuelled' are both"):
        declared_files([RULESETS["refuelled"], wrong])
    bad_key = dataclasses.replace(r, table=TableOffer(board_view="x",
        board=BoardAssets(WebFiles("Bad Key", Path("/x")), markup="a.html", module="a.js")))
    with pytest.raises(ValueError, match="web files key 'Bad Key'"):
        declared_files([bad_key])
    bad_file = dataclasses.replace(r, table=TableOffer(board_view="x",
        board=BoardAssets(WebFiles("x", Path("/x")), markup="../a.html", module="a.js")))
    with pytest.raises(ValueError, match=re.escape("'../a.html' is not a file name")):
        declared_files([bad_file])
    page = RulesetPage(path="teams", title="T", files=WebFiles("x", Path("/x")), file="t.html",
                       aliases=("/teams",))
    taken = dataclasses.replace(r, table=TableOffer(board_view="refuelled", pages=(page,)))
    with pytest.raises(ValueError, match=re.escape("page alias '/teams' is not a free plain path")):
        alias_router([taken], {"/teams"})


def test_the_package_ships_every_game_web_file() -> None:
    """pyproject's package-data covers every file of every declared ``WebFiles`` folder (a
    wheel or an editable install carries them, as it carries web/static)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data: dict[str, list[str]] = data["tool"]["setuptools"]["package-data"]
    src = Path(carnage.__file__).resolve().parent.parent
    for files in FILES.values():
        assert files.directory.is_dir(), files
        shipped = [f for f in files.directory.rglob("*") if f.is_file()]
        assert shipped, f"{files.key}: an empty folder"
        for f in shipped:
            owner = files.directory.parent
            package = ".".join(owner.relative_to(src).parts)
            rel = f.relative_to(owner).as_posix()
            patterns = package_data.get(package, []) + package_data.get("*", [])
            assert any(fnmatch.fnmatch(rel, p) for p in patterns), (
                f"{package}: {rel} is not in pyproject's package-data")
