"""The static site's build: every module mapped, the runtime vendored, the service worker complete."""

from __future__ import annotations

import json
import re
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402

HOSTS = re.compile(r"https?://(?!127\.0\.0\.1|localhost)[a-z0-9.-]+", re.I)


def test_the_bundles_hold_every_module_under_py():
    """Every module reaches the page: py/boneyard in engine.zip, py/ui in ui.zip, py/main.py as a file."""
    sources = build_site.python_sources()
    on_disk = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "py").rglob("*.py") if "__pycache__" not in p.parts)
    assert sources == on_disk
    bundled = [m for folder in build_site.BUNDLES.values() for m in build_site.bundle_members(folder)]
    assert sorted(bundled + ["py/main.py"]) == on_disk


def test_a_module_outside_the_bundles_stops_the_build(tmp_path):
    """A module the bundles would not carry is an error, not a page that cannot import it."""
    for folder in ("boneyard", "ui"):
        (tmp_path / "py" / folder).mkdir(parents=True)
        (tmp_path / "py" / folder / "__init__.py").write_text("")
    (tmp_path / "py" / "main.py").write_text("")
    (tmp_path / "py" / "stray.py").write_text("")
    out = tmp_path / "out"
    (out / "py").mkdir(parents=True)
    with pytest.raises(SystemExit, match="stray.py"):
        build_site.write_python(out, tmp_path)


def test_bundles_are_deterministic_and_unpack_to_the_page_paths(tmp_path):
    members = build_site.bundle_members("py/boneyard")
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    build_site.write_bundle(first, members)
    build_site.write_bundle(second, members)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as bundle:
        assert sorted(bundle.namelist()) == sorted(m.removeprefix("py/") for m in members)
        assert bundle.read("boneyard/core.py") == (ROOT / "py" / "boneyard" / "core.py").read_bytes()


def test_repository_config_asks_no_cdn():
    config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    assert config["interpreter"] == "./js/pyodide-snapshot.mjs"  # ours: it imports ../vendor/pyodide/pyodide.mjs
    assert 'from "../vendor/pyodide/pyodide.mjs"' in (ROOT / "js" / "pyodide-snapshot.mjs").read_text()
    assert "packages" not in config and "files" not in config
    for name in ("index.html", "pyscript.toml", "manifest.webmanifest", "js/boot.js", "js/sw.template.js", "css/app.css"):
        found = HOSTS.findall((ROOT / name).read_text())
        assert not [h for h in found if "www.w3.org" not in h], (name, found)


def test_lockfile_pins_the_runtime_and_names_no_registry_host():
    lock = json.loads((ROOT / "package-lock.json").read_text())
    packages = lock["packages"]
    assert packages["node_modules/@pyscript/core"]["version"] == "0.7.31"
    assert packages["node_modules/pyodide"]["version"] == "314.0.2"
    assert "resolved" not in (ROOT / "package-lock.json").read_text()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        pytest.skip("node_modules is not installed (make test installs it)")
    out = tmp_path_factory.mktemp("site") / "site"
    version = build_site.build(out)
    return out, version


def test_build_vendors_the_runtime_without_source_maps(built):
    out, _ = built
    for name in build_site.PYODIDE_FILES:
        assert (out / "vendor" / "pyodide" / name).stat().st_size > 0
    assert (out / "vendor" / "pyscript" / "core.js").exists()
    assert not list(out.rglob("*.map"))
    assert not list(out.rglob("*.template.js"))


def test_service_worker_precaches_every_file_of_the_site(built):
    out, version = built
    sw = (out / "sw.js").read_text()
    assert f'"{version}"' in sw
    listed = set(json.loads(sw[sw.index("const FILES = ") + len("const FILES = "): sw.index(";\n", sw.index("const FILES = "))]))
    files = {"./" + p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and p.name not in ("sw.js", "version.json")}
    assert files <= listed and "./" in listed
    assert "./index.html" in listed and "./vendor/pyodide/pyodide.asm.wasm" in listed and "./py/main.py" in listed
    assert "./py/engine.zip" in listed and "./py/ui.zip" in listed


def test_a_changed_file_is_a_new_version(built, tmp_path):
    out, version = built
    files = build_site.site_files(out)
    assert build_site.site_version(out, files) == version
    copy = tmp_path / "copy"
    import shutil

    shutil.copytree(out, copy)
    (copy / "css" / "app.css").write_text((copy / "css" / "app.css").read_text() + "\n/* changed */\n")
    assert build_site.site_version(copy, files) != version
