"""The static site's build: every module mapped, the runtime vendored, the service worker complete."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402

HOSTS = re.compile(r"https?://(?!127\.0\.0\.1|localhost)[a-z0-9.-]+", re.I)


def test_files_table_maps_every_module_under_py():
    sources = build_site.python_sources()
    on_disk = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "py").rglob("*.py") if "__pycache__" not in p.parts)
    assert sources == on_disk
    config = tomllib.loads(build_site.render_config((ROOT / "pyscript.toml").read_text(), sources))
    assert config["interpreter"] == "./vendor/pyodide/pyodide.mjs"
    assert sorted(config["files"]) == [f"./{s}" for s in on_disk]
    for src, dest in config["files"].items():
        assert dest == "./" + src.removeprefix("./py/")


def test_a_module_missing_from_the_table_is_caught(tmp_path):
    """The check above fails when a module is added but not mapped (the table is built from the tree)."""
    fake = tmp_path / "py" / "boneyard"
    fake.mkdir(parents=True)
    (fake / "new_module.py").write_text("")
    assert build_site.python_sources(tmp_path) == ["py/boneyard/new_module.py"]


def test_repository_config_asks_no_cdn():
    config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    assert config["interpreter"].startswith("./vendor/")
    assert "packages" not in config
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


def test_a_changed_file_is_a_new_version(built, tmp_path):
    out, version = built
    files = build_site.site_files(out)
    assert build_site.site_version(out, files) == version
    copy = tmp_path / "copy"
    import shutil

    shutil.copytree(out, copy)
    (copy / "css" / "app.css").write_text((copy / "css" / "app.css").read_text() + "\n/* changed */\n")
    assert build_site.site_version(copy, files) != version
