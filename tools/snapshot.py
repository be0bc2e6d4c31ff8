"""Boneyard's Pyodide memory snapshot: what goes in it, when it is rebuilt, and how the site gets it.

    python3 tools/snapshot.py [--site site]     (tools/build_site.py calls ``install(site)``)

The page boots by restoring a memory snapshot of a Pyodide that has already started and imported the
modules below, instead of starting Python from scratch (``js/pyodide-snapshot.mjs`` does the restore
and falls back to a normal boot whenever anything does not match).

What is in it (decided here, checked by tests/test_snapshot_build.py):

- the stdlib modules the page imports anyway (``WARM_STDLIB``: what PyScript's own ``pyscript``
  package and our ``py/ui`` pull in, measured in the page), and
- the engine, ``py/boneyard`` (``WARM_ENGINE``): pure Python, stdlib only, so it can be imported
  before PyScript sets up. ``boneyard.games`` discovers the game packages by listing its folder, so
  every file under ``py/boneyard`` is written into the snapshot's file system at the page's own path,
  and every one of them is an input of the snapshot.
- Not ``py/ui`` nor ``py/main.py``: they import ``pyscript`` and ``js``, which exist only once
  PyScript has set up the interpreter (and a snapshot may hold no JS object that is not reachable from
  ``globalThis``). They are imported from the served files, as in a normal boot.

Identity: the snapshot's id is a hash of its inputs (the five runtime files, every file under
``py/boneyard``, the warm list and ``tools/snapshot.mjs``). ``site/snapshot/manifest.json`` names the
snapshot file (its name carries the id), its SHA-256, the Pyodide version, and the SHA-256 of every
served file the snapshot depends on: ``py/engine.zip`` (the bundle of every ``py/boneyard`` module
that the page unpacks, built deterministically from the same files, so any change, addition or
removal shows) and ``python_stdlib.zip`` (the heap holds offsets into it). The page checks them all before it uses the snapshot; Pyodide itself refuses
a snapshot of another build (its build id is a hash of ``pyodide.asm.mjs`` and ``pyodide.asm.wasm``).

Cache: a snapshot is made (Node, ~5 s) only when its id is new; it is kept in ``build/snapshot/``
(git-ignored) under its id, so ``make test`` and ``make serve`` reuse it.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "snapshot"
MAKER = ROOT / "tools" / "snapshot.mjs"
LOADER = "./js/pyodide-snapshot.mjs"  # the page's `interpreter`: restores the snapshot or boots normally
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
HOME = "/home/pyodide"  # Pyodide's working folder, where the page unpacks py/engine.zip ("boneyard/...")
FORMAT = 2  # bump when the manifest or the way the snapshot is made changes
KEEP = 3  # cached snapshots kept
PAGE = 4096  # packing: runs of all-zero pages of this size are left out of the file
GZIP_LEVEL = 6  # level 9 is 4x slower to make for 1% smaller

# Imported before the snapshot is taken. Each must be importable before PyScript sets up (no js, no
# pyscript) and must not keep state that should differ between loads (the page reseeds `random`).
WARM_STDLIB = (
    "asyncio", "base64", "collections", "copy", "dataclasses", "datetime", "enum", "functools", "html",
    "importlib", "inspect", "json", "math", "pathlib", "pkgutil", "random", "re", "string", "traceback",
    "typing", "weakref",
)
WARM_ENGINE = ("boneyard", "boneyard.core", "boneyard.tiles", "boneyard.saves", "boneyard.settings",
               "boneyard.stats", "boneyard.games")


def engine_sources(root: Path = ROOT) -> list[str]:
    """Return every module of the engine (``py/boneyard``), relative to the repository, sorted."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in (root / "py" / "boneyard").rglob("*.py")
        if "__pycache__" not in p.parts
    )


def page_path(source: str) -> str:
    """Return where the page's file system holds ``source`` (``py/boneyard/x.py`` -> ``/home/pyodide/boneyard/x.py``)."""
    return f"{HOME}/{source.removeprefix('py/')}"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def warm_code() -> str:
    """Return the Python the snapshot maker runs: import the warm modules, leave no names behind."""
    names = ", ".join(repr(name) for name in WARM_STDLIB + WARM_ENGINE)
    return (
        "import importlib as _importlib\n"
        f"[_importlib.import_module(_name) for _name in ({names},)]\n"
        "del _importlib\n"
        "import gc as _gc; _gc.collect(); del _gc\n"
    )


def snapshot_id(runtime: Path, root: Path = ROOT) -> str:
    """Return the hash of everything the snapshot is made from (runtime, engine, warm list, maker)."""
    digest = hashlib.sha256(f"boneyard-snapshot {FORMAT}\n".encode())
    digest.update(warm_code().encode())
    digest.update(MAKER.read_bytes())
    for name in RUNTIME_FILES:
        digest.update(f"runtime {name} {sha256(runtime / name)}\n".encode())
    for source in engine_sources(root):
        digest.update(f"file {source} {sha256(root / source)}\n".encode())
    return digest.hexdigest()[:20]


def pack(raw: bytes) -> tuple[bytes, list[list[int]]]:
    """Return the snapshot packed for the page, and its runs.

    About half of the snapshot is pages of zeros, and inflating in the page costs time in proportion to
    the unpacked size: the file is the gzip of the pages that are not all zero, and ``runs`` lists
    where they go, as [offset, length] in bytes. The page fills a zeroed buffer of the full size.
    """
    runs: list[list[int]] = []
    chunks = []
    for offset in range(0, len(raw), PAGE):
        page = raw[offset:offset + PAGE]
        if not page.count(0) == len(page):
            if runs and runs[-1][0] + runs[-1][1] == offset:
                runs[-1][1] += len(page)
            else:
                runs.append([offset, len(page)])
            chunks.append(page)
    return gzip.compress(b"".join(chunks), compresslevel=GZIP_LEVEL, mtime=0), runs


def unpack(packed: bytes, runs: list[list[int]], size: int) -> bytes:
    """Return the raw snapshot from ``pack``'s output (what the page does, for the tests)."""
    data = gzip.decompress(packed)
    raw = bytearray(size)
    cursor = 0
    for offset, length in runs:
        raw[offset:offset + length] = data[cursor:cursor + length]
        cursor += length
    if cursor != len(data):
        raise ValueError("the packed snapshot does not match its runs")
    return bytes(raw)


def make(runtime: Path, out_gz: Path, out_report: Path, root: Path = ROOT) -> dict:
    """Make the snapshot with Node, pack it into ``out_gz`` and write its report (with the runs) into
    ``out_report``; return the report."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed")
    files = {page_path(source): str(root / source) for source in engine_sources(root)}
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.json"
        raw, part_report = Path(tmp) / "snapshot.bin", Path(tmp) / "report.json"
        spec.write_text(json.dumps({"pyodide": str(runtime), "files": files, "warm": warm_code(),
                                    "out": str(raw), "report": str(part_report)}))
        result = subprocess.run([node, str(MAKER), str(spec)], capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            raise RuntimeError(f"node {MAKER.name} failed:\n{result.stdout}\n{result.stderr}")
        packed, runs = pack(raw.read_bytes())
        report = json.loads(part_report.read_text())
        report.update(gzip_bytes=len(packed), runs=runs)
    out_gz.parent.mkdir(parents=True, exist_ok=True)
    part = out_gz.with_name(f"{out_gz.name}.{os.getpid()}.part")
    part.write_bytes(packed)
    out_report.write_text(json.dumps(report))
    part.replace(out_gz)  # last: a cache entry exists only once both files are whole
    return report


def cached(runtime: Path, root: Path = ROOT, cache: Path = CACHE) -> tuple[str, Path, dict, bool]:
    """Return (id, gz path, report, built now) for the current inputs, making the snapshot if needed."""
    sid = snapshot_id(runtime, root)
    gz, report = cache / f"{sid}.gz", cache / f"{sid}.json"
    built = False
    if not (gz.exists() and report.exists()):
        make(runtime, gz, report, root)
        built = True
        old = sorted(cache.glob("*.gz"), key=lambda p: p.stat().st_mtime, reverse=True)[KEEP:]
        for path in old:
            path.unlink(missing_ok=True)
            path.with_suffix(".json").unlink(missing_ok=True)
    return sid, gz, json.loads(report.read_text()), built


def set_interpreter(config_text: str, interpreter: str) -> str:
    """Return pyscript.toml's text with its ``interpreter`` replaced."""
    text, count = re.subn(r'(?m)^interpreter\s*=.*$', f'interpreter = "{interpreter}"', config_text, count=1)
    if count != 1:
        raise ValueError("pyscript.toml has no interpreter line")
    return text


def install(site: Path, root: Path = ROOT, cache: Path = CACHE) -> dict:
    """Put the snapshot for the current inputs into the built ``site`` (vendor/ and pyscript.toml must be
    there already) and point the page's interpreter at the loader; return the manifest."""
    runtime = site / "vendor" / "pyodide"
    sid, gz, report, built = cached(runtime, root, cache)
    folder = site / "snapshot"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    name = f"boneyard-{sid}.snap.gz"
    shutil.copy2(gz, folder / name)
    config = site / "pyscript.toml"
    config.write_text(set_interpreter(config.read_text(), LOADER))
    checks = {"py/engine.zip": sha256(site / "py" / "engine.zip"),
              "vendor/pyodide/python_stdlib.zip": sha256(runtime / "python_stdlib.zip")}
    manifest = {
        "format": FORMAT,
        "id": sid,
        "file": name,
        "sha256": sha256(folder / name),
        "pyodide": report["pyodide_version"],
        "bytes": report["bytes"],
        "gzip_bytes": report["gzip_bytes"],
        "runs": report["runs"],
        "stdlib_zip": report["stdlib_zip"],
        "checks": checks,
        "modules": report["modules"],
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    manifest["built_now"] = built
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"))
    args = parser.parse_args(argv)
    manifest = install(Path(args.site))
    state = "made" if manifest["built_now"] else "cached"
    print(f"snapshot {manifest['id']} ({state}): {manifest['bytes']} bytes, {manifest['gzip_bytes']} gzipped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
