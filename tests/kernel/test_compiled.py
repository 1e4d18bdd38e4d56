"""The compiled modules (mypyc, ``carnage/compiled.py``): used all together or not at all, and
never when a source changed after the build."""

from __future__ import annotations

import json
import subprocess
import sys

from carnage import compiled


def test_a_current_build_is_used_whole_and_no_build_is_plain_python():
    used = compiled.in_use()
    record = compiled.recorded()
    if record and not compiled.stale(record):
        assert used == list(compiled.COMPILED)
        assert "compiled with mypyc" in compiled.describe()
    else:
        assert used == []
        assert compiled.describe().startswith("pure Python")


def test_an_edited_source_is_stale(tmp_path, monkeypatch):
    stamp = tmp_path / "_compiled.json"
    good = {name: compiled.digest(name) for name in compiled.COMPILED}
    stamp.write_text(json.dumps({"modules": good}))
    monkeypatch.setattr(compiled, "STAMP", stamp)
    assert compiled.stale() == []
    edited = dict(good, **{"carnage.geometry.shapes": "0" * 64})
    stamp.write_text(json.dumps({"modules": edited}))
    assert compiled.stale() == ["carnage.geometry.shapes"]
    stamp.write_text("{not json")
    assert compiled.recorded() == {}


def test_with_a_stale_build_every_compiled_module_comes_from_its_source():
    # A fresh interpreter: the guard sees a record that no longer matches, so the compiled
    # modules (loaded after it) come from their .py files, and it warns.
    code = (
        "import warnings, carnage.compiled as c\n"
        "c.recorded = lambda: {n: '0' * 64 for n in c.COMPILED}\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    c.guard()\n"
        "import carnage.geometry.shapes as s, carnage.geometry.movement as m\n"
        "print(s.__file__.endswith('.py'), m.__file__.endswith('.py'), c.in_use(),\n"
        "      any('make compile' in str(x.message) for x in w))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.split() == ["True", "True", "[]", "True"]


def test_an_extension_the_build_did_not_record_is_never_used():
    # A module dropped from the list keeps its old extension file until the next build: the
    # guard imports it from source (here the record is made to miss shapes).
    code = (
        "import warnings, carnage.compiled as c\n"
        "rec = c.recorded()\n"
        "c.recorded = lambda: {k: v for k, v in rec.items() if k != 'carnage.geometry.shapes'}\n"
        "c.extension_modules = lambda: sorted(set(rec) | {'carnage.geometry.shapes'})\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    c.guard()\n"
        "import carnage.geometry.shapes as s\n"
        "print(s.__file__.endswith('.py'), any('shapes' in str(x.message) for x in w))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.split() == ["True", "True"]


def test_the_build_holds_exactly_the_listed_modules():
    if compiled.recorded():
        assert compiled.extension_modules() == sorted(compiled.COMPILED)
    else:
        assert compiled.extension_modules() == []
