"""The memory snapshot's build (tools/snapshot.py): packing, identity, caching, and what the site gets."""

from __future__ import annotations

import gzip
import json
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402
import snapshot  # noqa: E402


def test_pack_leaves_out_zero_pages_and_unpacks_exactly():
    page = snapshot.PAGE
    raw = bytes(page) + b"\x01" * page + bytes(3 * page) + b"\x02" + bytes(page - 1) + b"\x03" * 100
    packed, runs = snapshot.pack(raw)
    assert runs == [[page, page], [5 * page, page + 100]]
    assert len(gzip.decompress(packed)) == 2 * page + 100
    assert snapshot.unpack(packed, runs, len(raw)) == raw


def test_unpack_refuses_runs_that_do_not_match():
    packed, runs = snapshot.pack(b"\x01" * snapshot.PAGE * 2)
    with pytest.raises(ValueError):
        snapshot.unpack(packed, [[0, snapshot.PAGE]], snapshot.PAGE * 2)


def fake_tree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "py" / "boneyard", root / "py" / "boneyard", ignore=shutil.ignore_patterns("__pycache__"))
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    for name in snapshot.RUNTIME_FILES:
        (runtime / name).write_bytes(name.encode())
    return root, runtime


def test_the_id_changes_with_every_input(tmp_path):
    root, runtime = fake_tree(tmp_path)
    first = snapshot.snapshot_id(runtime, root)
    assert snapshot.snapshot_id(runtime, root) == first
    (root / "py" / "boneyard" / "tiles.py").write_text((root / "py" / "boneyard" / "tiles.py").read_text() + "\n")
    second = snapshot.snapshot_id(runtime, root)
    assert second != first
    (root / "py" / "boneyard" / "games" / "new_game").mkdir()
    (root / "py" / "boneyard" / "games" / "new_game" / "__init__.py").write_text("")
    third = snapshot.snapshot_id(runtime, root)
    assert third != second
    (runtime / "python_stdlib.zip").write_bytes(b"another stdlib")
    assert snapshot.snapshot_id(runtime, root) != third


def test_what_goes_in_is_the_engine_and_stdlib_only():
    assert all(name == "boneyard" or name.startswith("boneyard.") for name in snapshot.WARM_ENGINE)
    assert not [name for name in snapshot.WARM_STDLIB if name.split(".")[0] in ("js", "pyodide", "pyscript", "ui")]
    assert snapshot.engine_sources() == sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "py" / "boneyard").rglob("*.py") if "__pycache__" not in p.parts
    )
    assert snapshot.page_path("py/boneyard/games/__init__.py") == "/home/pyodide/boneyard/games/__init__.py"


def test_set_interpreter():
    text = 'name = "x"\ninterpreter = "./vendor/pyodide/pyodide.mjs"\n'
    assert tomllib.loads(snapshot.set_interpreter(text, snapshot.LOADER))["interpreter"] == snapshot.LOADER
    with pytest.raises(ValueError):
        snapshot.set_interpreter('name = "x"\n', snapshot.LOADER)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists() or shutil.which("node") is None:
        pytest.skip("node_modules or node is not installed (make test installs them)")
    out = tmp_path_factory.mktemp("site") / "site"
    version = build_site.build(out)
    return out, version


def test_the_site_gets_a_snapshot_that_matches_its_files(built):
    out, _ = built
    manifest = json.loads((out / "snapshot" / "manifest.json").read_text())
    config = tomllib.loads((out / "pyscript.toml").read_text())
    assert config["interpreter"] == snapshot.LOADER
    assert (out / config["interpreter"]).exists()
    assert manifest["id"] in manifest["file"] and manifest["pyodide"] == "314.0.2"
    assert manifest["checks"].keys() == {"py/engine.zip", "vendor/pyodide/python_stdlib.zip"}
    for path, digest in manifest["checks"].items():
        assert snapshot.sha256(out / path) == digest, path
    packed = (out / "snapshot" / manifest["file"]).read_bytes()
    assert len(packed) == manifest["gzip_bytes"] and snapshot.sha256(out / "snapshot" / manifest["file"]) == manifest["sha256"]
    raw = snapshot.unpack(packed, manifest["runs"], manifest["bytes"])
    assert len(raw) == manifest["bytes"]
    # The engine is warm; the browser layer is not (it needs PyScript, which is set up after the restore).
    assert "boneyard.games" in manifest["modules"] and "boneyard.core" in manifest["modules"]
    assert not [m for m in manifest["modules"] if m.split(".")[0] in ("ui", "main", "pyscript", "js")]


def test_the_service_worker_precaches_the_snapshot(built):
    out, _ = built
    manifest = json.loads((out / "snapshot" / "manifest.json").read_text())
    sw = (out / "sw.js").read_text()
    assert '"./snapshot/manifest.json"' in sw and f'"./snapshot/{manifest["file"]}"' in sw


def test_a_second_build_reuses_the_cached_snapshot(built, tmp_path):
    out, _ = built
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    manifest = snapshot.install(copy)
    assert manifest["built_now"] is False
    assert manifest["id"] == json.loads((out / "snapshot" / "manifest.json").read_text())["id"]
