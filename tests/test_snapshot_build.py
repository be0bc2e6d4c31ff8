"""The memory snapshot's build (tools/snapshot.py): packing, identity, caching, and what the site gets."""

from __future__ import annotations

import gzip
import hashlib
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
    packed, runs, wasm_runs = snapshot.pack(raw)
    assert runs == [[page, page], [5 * page, page + 100]] and wasm_runs == []
    assert len(gzip.decompress(packed)) == 2 * page + 100
    assert snapshot.unpack(packed, runs, len(raw)) == raw


def test_pack_leaves_out_the_pages_the_webassembly_memory_holds_and_unpacks_exactly():
    """A page of the snapshot that the memory holds at the restore (at its offset less the header) is
    left out of the file and listed in wasm_runs; a page that differs by one byte, or that the header
    overlaps, is packed."""
    page, header = snapshot.PAGE, 160
    memory = bytearray(b"\x07" * page * 6)
    memory[4 * page + 9] = 8  # the snapshot's fifth page differs from the memory by one byte
    raw = bytes(header) + b"\x07" * page * 6  # a heap of six pages after a header
    packed, runs, wasm_runs = snapshot.pack(raw, bytes(memory), header)
    # Page 0 holds the header: packed. Pages 1-3 and 5 are the memory's: taken from it. Page 4 is not.
    assert wasm_runs == [[page, 3 * page], [5 * page, page + header]]
    assert runs == [[0, page], [4 * page, page]]
    assert len(gzip.decompress(packed)) == 2 * page
    assert snapshot.wasm_pages(raw, wasm_runs) == raw[page : 4 * page] + raw[5 * page :]
    assert snapshot.unpack(packed, runs, len(raw), wasm_runs, bytes(memory), header) == raw


def test_unpack_refuses_runs_that_do_not_match():
    packed, _runs, _wasm_runs = snapshot.pack(b"\x01" * snapshot.PAGE * 2)
    with pytest.raises(ValueError):
        snapshot.unpack(packed, [[0, snapshot.PAGE]], snapshot.PAGE * 2)


def fake_tree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "repo"
    for folder in snapshot.SOURCE_FOLDERS:
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    for name in snapshot.RUNTIME_FILES:
        (runtime / name).write_bytes(name.encode())
    return root, runtime


def test_the_id_changes_with_every_input(tmp_path):
    root, runtime = fake_tree(tmp_path)
    first = snapshot.snapshot_id(runtime, root)
    assert snapshot.snapshot_id(runtime, root) == first
    (root / "py" / "boneyard" / "tiles.py").write_text(
        (root / "py" / "boneyard" / "tiles.py").read_text() + "\n"
    )
    second = snapshot.snapshot_id(runtime, root)
    assert second != first
    (root / "py" / "boneyard" / "games" / "new_game").mkdir()
    (root / "py" / "boneyard" / "games" / "new_game" / "__init__.py").write_text("")
    third = snapshot.snapshot_id(runtime, root)
    assert third != second
    (root / "py" / "ui" / "html.py").write_text((root / "py" / "ui" / "html.py").read_text() + "\n")
    fourth = snapshot.snapshot_id(runtime, root)
    assert fourth != third
    (runtime / "python_stdlib.zip").write_bytes(b"another stdlib")
    assert snapshot.snapshot_id(runtime, root) != fourth


def test_what_goes_in_is_what_the_page_imports_before_pyscript():
    assert all(name == "boneyard" or name.startswith("boneyard.") for name in snapshot.WARM_ENGINE)
    assert not [
        name for name in snapshot.WARM_STDLIB if name.split(".")[0] in ("js", "pyodide", "pyscript", "ui")
    ]
    assert snapshot.warm_sources() == sorted(
        p.relative_to(ROOT).as_posix()
        for folder in ("py/boneyard", "py/ui")
        for p in (ROOT / folder).rglob("*.py")
        if "__pycache__" not in p.parts
    )
    assert snapshot.page_path("py/boneyard/games/__init__.py") == "/home/pyodide/boneyard/games/__init__.py"
    assert snapshot.page_path("py/ui/html.py") == "/home/pyodide/ui/html.py"
    project, stdlib = snapshot.start_imports()
    # ui.app and what it imports at module level; no game's rules or table screen (they load on first use).
    assert {"ui.app", "ui.html", "ui.shell", "ui.session", "boneyard.games"} <= set(project)
    assert not [m for m in project if m.startswith(("ui.games.", "boneyard.games."))], project
    assert "typing" in stdlib and not [
        m for m in stdlib if m.split(".")[0] in ("js", "pyscript", "ui", "boneyard")
    ]


def test_start_imports_follows_module_level_imports_only(tmp_path):
    root = tmp_path / "repo"
    (root / "py" / "ui" / "games").mkdir(parents=True)
    (root / "py" / "ui" / "__init__.py").write_text("")
    (root / "py" / "ui" / "app.py").write_text(
        "from __future__ import annotations\nimport json\nfrom . import html\nfrom .games import pick\n"
        "try:\n    import zlib\nexcept ImportError:\n    pass\n"
        "def later():\n    import csv\n    from . import lazy\n"
    )
    (root / "py" / "ui" / "html.py").write_text("from html import escape\nfrom typing import Any\n")
    (root / "py" / "ui" / "lazy.py").write_text("import decimal\n")
    (root / "py" / "ui" / "games" / "__init__.py").write_text("import importlib.util\ndef pick(): pass\n")
    project, stdlib = snapshot.start_imports(root)
    assert project == ["ui", "ui.app", "ui.games", "ui.html"]
    assert stdlib == ["html", "importlib.util", "json", "typing", "zlib"]


def test_the_warm_code_blocks_what_exists_only_in_the_page():
    code = snapshot.warm_code()
    compile(code, "<warm>", "exec")
    assert "'ui.app'" in code and "'js', 'pyscript'" in code


def test_a_heap_larger_than_the_initial_memory_is_warned_about(tmp_path):
    # A minimal module: magic, version, then a memory section (id 5) of one memory, min 480 pages, max 65536.
    wasm = tmp_path / "m.wasm"
    wasm.write_bytes(
        b"\0asm\x01\0\0\0" + bytes([5, 6, 1, 1]) + bytes([0xE0, 0x03]) + bytes([0x80, 0x80, 0x04])
    )
    assert snapshot.wasm_initial_memory(wasm) == 480 * 65536
    assert snapshot.check_heap(480 * 65536, wasm) is None
    warning = snapshot.check_heap(480 * 65536 + 1, wasm)
    assert warning and "30 MiB" in warning


def test_the_vendored_runtime_starts_with_30_mib():
    wasm = ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm"
    if not wasm.exists():
        pytest.skip("node_modules is not installed (make test installs it)")
    assert snapshot.wasm_initial_memory(wasm) == 30 * 2**20


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


def data_segments(wasm: Path, size: int) -> bytes:
    """Return a memory of ``size`` bytes holding a WebAssembly module's active data segments (those at a
    constant offset), as instantiating it leaves its memory."""
    data = wasm.read_bytes()
    memory = bytearray(size)
    for section, body, _size in snapshot.wasm_sections(data):
        if section != 11:  # the data section
            continue
        count, at = snapshot.leb128(data, body)
        for _ in range(count):
            flags, at = snapshot.leb128(data, at)
            offset = None
            if flags == 0 and data[at] == 0x41:  # active, at i32.const N
                offset, at = snapshot.leb128(data, at + 1)
                at += 1  # end
            elif flags in (0, 2):
                raise AssertionError(f"a data segment with flags {flags} and no constant offset")
            length, at = snapshot.leb128(data, at)
            if offset is not None:
                memory[offset : offset + length] = data[at : at + length]
            at += length
    return bytes(memory)


def test_the_site_gets_a_snapshot_that_matches_its_files(built):
    out, _ = built
    manifest = json.loads((out / "snapshot" / "manifest.json").read_text())
    config = tomllib.loads((out / "pyscript.toml").read_text())
    assert config["interpreter"] == snapshot.LOADER
    assert (out / config["interpreter"]).exists()
    assert manifest["id"] in manifest["file"] and manifest["pyodide"] == "314.0.2"
    assert manifest["checks"].keys() == {"py/engine.zip", "py/ui.zip", "vendor/pyodide/python_stdlib.zip"}
    assert manifest["heap_bytes"] <= snapshot.wasm_initial_memory(
        out / "vendor" / "pyodide" / "pyodide.asm.wasm"
    )
    for path, digest in manifest["checks"].items():
        assert snapshot.sha256(out / path) == digest, path
    packed = (out / "snapshot" / manifest["file"]).read_bytes()
    assert (
        len(packed) == manifest["gzip_bytes"]
        and snapshot.sha256(out / "snapshot" / manifest["file"]) == manifest["sha256"]
    )
    # The pages taken from the memory at the restore are the WebAssembly module's own data, read here
    # from its data segments: with them the file unpacks to a snapshot whose pages hash as the page checks.
    wasm_runs, header = manifest["wasm_runs"], manifest["bytes"] - manifest["heap_bytes"]
    assert sum(length for _, length in wasm_runs) > 3_000_000
    spans = sorted(manifest["runs"] + wasm_runs)
    assert all(a + n <= b for (a, n), (b, _) in zip(spans, spans[1:])), "the runs overlap"
    image = data_segments(out / "vendor" / "pyodide" / "pyodide.asm.wasm", manifest["heap_bytes"])
    raw = snapshot.unpack(packed, manifest["runs"], manifest["bytes"], wasm_runs, image, header)
    assert len(raw) == manifest["bytes"]
    assert hashlib.sha256(snapshot.wasm_pages(raw, wasm_runs)).hexdigest() == manifest["wasm_sha256"]
    # The engine and the browser layer's controller are warm (ui.app needs no PyScript: the page's port,
    # ui.browser, does, and is set up after the restore), not any game's rules or table screen.
    modules = manifest["modules"]
    assert {"boneyard.games", "boneyard.core", "ui.app", "ui.html", "ui.shell", "ui.session"} <= set(modules)
    assert not [m for m in modules if m.split(".")[0] in ("main", "pyscript", "js")]
    assert not [m for m in modules if m.startswith("ui.browser")]
    assert not [
        m
        for m in modules
        if m.startswith("ui.games.") or (m.count(".") >= 3 and m.startswith("boneyard.games."))
    ]


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
