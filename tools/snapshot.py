"""Boneyard's Pyodide memory snapshot: what goes in it, when it is rebuilt, and how the site gets it.

    python3 tools/snapshot.py [--site site]     (tools/build_site.py calls ``install(site)``)

The page boots by restoring a memory snapshot of a Pyodide that has already started and imported the
modules below, instead of starting Python from scratch (``js/pyodide-snapshot.mjs`` does the restore
and falls back to a normal boot whenever anything does not match).

What is in it: exactly what the page imports before its first render and can import before PyScript
has set up (checked by tests/test_snapshot_build.py against the page's ``sys.modules``):

- the stdlib modules the page imports anyway (``WARM_STDLIB``: what PyScript's own ``pyscript``
  package and our ``py/ui`` pull in, measured in the page);
- the engine's start, ``py/boneyard`` (``WARM_ENGINE``): the registry and each game's ``GameInfo``,
  pure Python, stdlib only. The games' rules and bots are not: they load on first use;
- the pure half of the browser layer (``WARM_UI``: the screens' markup, sessions, storage rules).
  ``ui.app`` included (the controller needs no browser). Not ``py/main.py`` nor the page's port
  (``ui.browser``): they import ``pyscript`` and ``js``, which exist only once PyScript has set up the
  interpreter (and a snapshot may hold no JS object that is not reachable from ``globalThis``); the
  maker refuses a warm list that pulls them in.

Every file under ``py/boneyard`` and ``py/ui`` is written into the maker's file system at the page's
own path (``boneyard.games`` and ``ui.games`` find their members by listing folders), and every one of
them is an input of the snapshot. The warm-up costs the snapshot little: a bare Pyodide's heap is
about 6.1 MB packed, ours about 0.3 MB more (``report()`` prints both figures' parts).

Identity: the snapshot's id is a hash of its inputs (the five runtime files, every file under
``py/boneyard`` and ``py/ui``, the warm lists and ``tools/snapshot.mjs``). ``site/snapshot/manifest.json``
names the snapshot file (its name carries the id), its SHA-256, the Pyodide version, the heap's size,
and the SHA-256 of every served file the snapshot depends on: ``py/engine.zip`` and ``py/ui.zip`` (the
bundles the page unpacks, built deterministically from the same files, so any change, addition or
removal shows) and ``python_stdlib.zip`` (the heap holds offsets into it). The page checks them all
before it uses the snapshot; Pyodide itself refuses a snapshot of another build (its build id is a hash
of ``pyodide.asm.mjs`` and ``pyodide.asm.wasm``).

Packing (``pack``): the file holds only the pages the page cannot get otherwise. Pages of zeros are left
out, and so are the pages that the WebAssembly's memory already holds when the restore begins (the
module's own data, 3.4 MB that Python never wrote; the maker reads that memory when Pyodide calls its
fsInit hook): the manifest lists those as ``wasm_runs``, with the SHA-256 of their bytes, and the page
copies them from its memory and checks that hash before it restores.

Memory: Pyodide restores the heap into the memory its WebAssembly module starts with (30 MiB); a
heap that outgrew it would fail to restore on every load and the page would always boot the slow way,
so the build warns when the heap is larger (``check_heap``).

Byte-code: after taking the snapshot, the maker compiles every module under ``py/`` and PyScript's own
``pyscript`` package (which PyScript writes and imports on every start) into checked-hash ``.pyc``
files; the site serves them as ``py/pycache.zip``, which the page unpacks with the bundles. Python
uses such a file only if it matches its source's hash, so a stale one costs nothing but the compile.

Cache: a snapshot is made (Node, ~5 s) only when its id is new; it is kept in ``build/snapshot/``
(git-ignored) under its id, so ``make test`` and ``make serve`` reuse it.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "snapshot"
MAKER = ROOT / "tools" / "snapshot.mjs"
LOADER = "./js/pyodide-snapshot.mjs"  # the page's `interpreter`: restores the snapshot or boots normally
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
HOME = "/home/pyodide"  # Pyodide's working folder, where the page unpacks py/engine.zip ("boneyard/...")
FORMAT = 3  # bump when the manifest or the way the snapshot is made changes
KEEP = 3  # cached snapshots kept
PAGE = 4096  # packing: runs of all-zero pages of this size are left out of the file
GZIP_LEVEL = 6  # level 9 is 4x slower to make for 1% smaller

# Imported before the snapshot is taken. Each must be importable before PyScript sets up (no js, no
# pyscript) and must not keep state that should differ between loads (the page reseeds `random`).
WARM_STDLIB = (
    "asyncio",
    "base64",
    "collections",
    "copy",
    "dataclasses",
    "datetime",
    "enum",
    "functools",
    "html",
    "importlib",
    "inspect",
    "json",
    "math",
    "pathlib",
    "pkgutil",
    "random",
    "re",
    "string",
    "traceback",
    "typing",
    "weakref",
)
WARM_ENGINE = (
    "boneyard",
    "boneyard.core",
    "boneyard.tiles",
    "boneyard.saves",
    "boneyard.settings",
    "boneyard.stats",
    "boneyard.games",
)
# The page's entry: ``py/main.py`` imports it. What it imports at module level (and those modules in
# turn) is what the page imports before its first render; ``start_imports`` lists it from the sources.
ENTRY = "ui.app"
# Modules that must not be in the heap: they exist only once PyScript has set up the page. A start-up
# module that imports one (the page's port, ui.browser) is left to the page; the maker blocks them.
FORBIDDEN = ("js", "pyscript")
SOURCE_FOLDERS = ("py/boneyard", "py/ui")
PROJECT = ("boneyard", "ui")


def _module_file(name: str, root: Path) -> Path | None:
    """Return the source of a project module (``ui.html`` -> ``py/ui/html.py``), or None."""
    base = root / "py" / Path(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _top_level_imports(name: str, path: Path) -> tuple[set[str], set[str]]:
    """Return the modules a module imports when it is imported (not inside functions), and the names
    it imports from them (``x.y`` for ``from x import y``: a module, or not)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    members: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1])
                    module = f"{base}.{node.module}" if node.module else base
                else:
                    module = node.module or ""
                if module == "__future__":
                    continue
                found.add(module)
                members.update(f"{module}.{alias.name}" for alias in node.names)
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.ClassDef)):
                visit(node.body)
                for extra in ("orelse", "finalbody"):
                    visit(getattr(node, extra, []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return found, members


def start_imports(root: Path = ROOT, entry: str = ENTRY) -> tuple[list[str], list[str]]:
    """Return (project modules, stdlib modules) that importing ``entry`` imports, sorted.

    Read from the sources, following the project's own modules; a ``from x import y`` counts ``x.y``
    only where it is a module. The entry itself is included."""
    project: set[str] = set()
    stdlib: set[str] = set()
    queue = [entry]
    while queue:
        name = queue.pop()
        if name in project:
            continue
        path = _module_file(name, root)
        if path is None:
            continue
        parts = name.split(".")
        for i in range(1, len(parts)):  # importing a.b.c imports a and a.b first
            queue.append(".".join(parts[:i]))
        project.add(name)
        modules, members = _top_level_imports(name, path)
        for imported in modules | members:
            if imported.split(".")[0] in PROJECT:
                queue.append(imported)  # dropped above if it is no module
            elif imported in modules and imported.split(".")[0] in sys.stdlib_module_names:
                stdlib.add(imported)
    return sorted(project), sorted(stdlib)


def warm_sources(root: Path = ROOT) -> list[str]:
    """Return every module of ``py/boneyard`` and ``py/ui``, relative to the repository, sorted."""
    return sorted(
        p.relative_to(root).as_posix()
        for folder in SOURCE_FOLDERS
        for p in (root / folder).rglob("*.py")
        if "__pycache__" not in p.parts
    )


def leb128(data: bytes, at: int) -> tuple[int, int]:
    """Return the unsigned LEB128 number at ``data[at]`` and the offset after it."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def wasm_sections(data: bytes) -> Iterator[tuple[int, int, int]]:
    """Yield each section of a WebAssembly module as (id, offset of its body, size of its body)."""
    at = 8  # after the magic number and the version
    while at < len(data):
        size, body = leb128(data, at + 1)
        yield data[at], body, size
        at = body + size


def wasm_initial_memory(wasm: Path) -> int:
    """Return the initial size in bytes of the memory that a WebAssembly module defines (its memory
    section's minimum), or 0 if it defines none."""
    data = wasm.read_bytes()
    for section, body, _size in wasm_sections(data):
        if section == 5:  # memory: count, then flags and the minimum in 64 KiB pages
            count, at = leb128(data, body)
            if count:
                return leb128(data, at + 1)[0] * 65536
    return 0


def check_heap(heap_bytes: int, wasm: Path) -> str | None:
    """Return a warning when the snapshot's heap is larger than the memory Pyodide starts with."""
    initial = wasm_initial_memory(wasm)
    if initial and heap_bytes > initial:
        return (
            f"the snapshot's heap is {heap_bytes / 2**20:.1f} MiB, more than the {initial / 2**20:.0f} MiB "
            "Pyodide starts with: it will not restore, and every load will boot without it. Import less "
            "before the snapshot (tools/snapshot.py WARM_*)."
        )
    return None


def page_path(source: str) -> str:
    """Return where the page's file system holds ``source`` (``py/boneyard/x.py`` -> ``/home/pyodide/boneyard/x.py``)."""
    return f"{HOME}/{source.removeprefix('py/')}"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def warm_code(root: Path = ROOT) -> str:
    """Return the Python the snapshot maker runs: import the warm modules, leave no names behind.

    ``WARM_STDLIB`` and ``WARM_ENGINE`` must import; of the start-up modules (``start_imports``) the
    stdlib ones (some may not exist in Pyodide) and the project's are imported where they can be,
    with ``js`` and ``pyscript`` blocked, so a module that needs them is left to the page. The maker
    fails if anything forbidden got in all the same."""
    project, stdlib = start_imports(root)
    required = ", ".join(repr(name) for name in WARM_STDLIB + WARM_ENGINE)
    optional = ", ".join(repr(name) for name in [*stdlib, *project])
    return (
        "import importlib as _importlib, sys as _sys\n"
        "class _Block:\n"
        "    @staticmethod\n"
        "    def find_spec(name, path=None, target=None):\n"
        f"        if name.split('.')[0] in {FORBIDDEN!r}: raise ImportError(f'{{name}} exists only in the page')\n"
        "_sys.meta_path.insert(0, _Block)\n"
        f"for _name in ({required},): _importlib.import_module(_name)\n"
        f"for _name in ({optional},):\n"
        "    try: _importlib.import_module(_name)\n"
        "    except ImportError: pass\n"
        "_sys.meta_path.remove(_Block)\n"
        f"_bad = [_m for _m in _sys.modules if _m.split('.')[0] in {FORBIDDEN!r}]\n"
        "if _bad: raise ImportError(f'the snapshot may not hold {_bad}: they exist only once PyScript is set up')\n"
        "del _importlib, _sys, _Block, _name, _bad\n"
        "import gc as _gc; _gc.collect(); del _gc\n"
    )


def pyscript_core(runtime: Path) -> Path | None:
    """Return PyScript's core bundle beside the runtime (``vendor/pyscript/core-*.js``), or None."""
    found = sorted((runtime.parent / "pyscript").glob("core-*.js"))
    return found[0] if found else None


def snapshot_id(runtime: Path, root: Path = ROOT) -> str:
    """Return the hash of everything the snapshot is made from (runtime, sources, warm list, maker)."""
    digest = hashlib.sha256(f"boneyard-snapshot {FORMAT}\n".encode())
    core = pyscript_core(runtime)
    if core is not None:
        digest.update(f"pyscript {sha256(core)}\n".encode())
    digest.update(warm_code(root).encode())
    digest.update(MAKER.read_bytes())
    for name in RUNTIME_FILES:
        digest.update(f"runtime {name} {sha256(runtime / name)}\n".encode())
    for source in warm_sources(root):
        digest.update(f"file {source} {sha256(root / source)}\n".encode())
    return digest.hexdigest()[:20]


def pack(raw: bytes, initial: bytes = b"", header: int = 0) -> tuple[bytes, list[list[int]], list[list[int]]]:
    """Return the snapshot packed for the page, its runs and its WebAssembly runs.

    About half of the snapshot is pages of zeros, and inflating in the page costs time in proportion to
    the unpacked size: the file is the gzip of the pages that are not all zero, and ``runs`` lists
    where they go, as [offset, length] in bytes. The page fills a zeroed buffer of the full size.

    ``initial`` is the WebAssembly's memory as the restore finds it (instantiated, none of Python's code
    run: its data segments), and the snapshot's heap starts ``header`` bytes into ``raw``. A page that is
    the same there (3.4 MB of the module's own data that Python never wrote) is left out of the file too:
    ``wasm_runs`` lists those, [offset, length] in ``raw``, and the page copies each from its memory, at
    ``offset - header``, before the restore.
    """
    runs: list[list[int]] = []
    wasm_runs: list[list[int]] = []
    chunks = []

    def add(to: list[list[int]], offset: int, length: int) -> None:
        if to and to[-1][0] + to[-1][1] == offset:
            to[-1][1] += length
        else:
            to.append([offset, length])

    for offset in range(0, len(raw), PAGE):
        page = raw[offset : offset + PAGE]
        if page.count(0) == len(page):
            continue
        at = offset - header
        if at >= 0 and initial[at : at + len(page)] == page:
            add(wasm_runs, offset, len(page))
        else:
            add(runs, offset, len(page))
            chunks.append(page)
    return gzip.compress(b"".join(chunks), compresslevel=GZIP_LEVEL, mtime=0), runs, wasm_runs


def wasm_pages(raw: bytes, wasm_runs: Sequence[Sequence[int]]) -> bytes:
    """Return the snapshot's pages that the page takes from its memory, in order (what it checks)."""
    return b"".join(raw[offset : offset + length] for offset, length in wasm_runs)


def unpack(
    packed: bytes,
    runs: list[list[int]],
    size: int,
    wasm_runs: Sequence[Sequence[int]] = (),
    initial: bytes = b"",
    header: int = 0,
) -> bytes:
    """Return the raw snapshot from ``pack``'s output (what the page does, for the tests)."""
    data = gzip.decompress(packed)
    raw = bytearray(size)
    cursor = 0
    for offset, length in runs:
        raw[offset : offset + length] = data[cursor : cursor + length]
        cursor += length
    if cursor != len(data):
        raise ValueError("the packed snapshot does not match its runs")
    for offset, length in wasm_runs:
        raw[offset : offset + length] = initial[offset - header : offset - header + length]
    return bytes(raw)


def zip_folder(folder: Path, dest: Path) -> None:
    """Write a deterministic, stored zip of every file under ``folder`` (names relative to it)."""
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_STORED) as bundle:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            bundle.writestr(info, path.read_bytes())


def make(runtime: Path, out_gz: Path, out_report: Path, root: Path = ROOT) -> dict:
    """Make the snapshot with Node, pack it into ``out_gz``, its byte-code beside it (``.pyc.zip``), and
    write its report (with the runs) into ``out_report``; return the report."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed")
    files = {page_path(source): str(root / source) for source in warm_sources(root)}
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.json"
        raw, part_report = Path(tmp) / "snapshot.bin", Path(tmp) / "report.json"
        initial = Path(tmp) / "initial.bin"
        pycache = Path(tmp) / "pycache"
        core = pyscript_core(runtime)
        spec.write_text(
            json.dumps(
                {
                    "pyodide": str(runtime),
                    "files": files,
                    "warm": warm_code(root),
                    "out": str(raw),
                    "report": str(part_report),
                    "pyscript": str(core) if core else None,
                    "pycache": str(pycache),
                    "initial": str(initial),
                }
            )
        )
        result = subprocess.run([node, str(MAKER), str(spec)], capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            raise RuntimeError(f"node {MAKER.name} failed:\n{result.stdout}\n{result.stderr}")
        report = json.loads(part_report.read_text())
        heap = raw.read_bytes()
        packed, runs, wasm_runs = pack(heap, initial.read_bytes(), len(heap) - report["heap_bytes"])
        report.update(
            gzip_bytes=len(packed),
            runs=runs,
            wasm_runs=wasm_runs,
            wasm_sha256=hashlib.sha256(wasm_pages(heap, wasm_runs)).hexdigest(),
        )
        out_gz.parent.mkdir(parents=True, exist_ok=True)
        pycache.mkdir(exist_ok=True)
        zip_folder(pycache, pyc_path(out_gz))
    part = out_gz.with_name(f"{out_gz.name}.{os.getpid()}.part")
    part.write_bytes(packed)
    out_report.write_text(json.dumps(report))
    part.replace(out_gz)  # last: a cache entry exists only once both files are whole
    return report


def pyc_path(gz: Path) -> Path:
    """Return where the byte-code of the snapshot ``gz`` is cached."""
    return gz.with_name(gz.name.removesuffix(".gz") + ".pyc.zip")


def cached(runtime: Path, root: Path = ROOT, cache: Path = CACHE) -> tuple[str, Path, dict, bool]:
    """Return (id, gz path, report, built now) for the current inputs, making the snapshot if needed."""
    sid = snapshot_id(runtime, root)
    gz, report = cache / f"{sid}.gz", cache / f"{sid}.json"
    built = False
    if not (gz.exists() and report.exists() and pyc_path(gz).exists()):
        make(runtime, gz, report, root)
        built = True
        old = sorted(cache.glob("*.gz"), key=lambda p: p.stat().st_mtime, reverse=True)[KEEP:]
        for path in old:
            path.unlink(missing_ok=True)
            path.with_suffix(".json").unlink(missing_ok=True)
            pyc_path(path).unlink(missing_ok=True)
    return sid, gz, json.loads(report.read_text()), built


def set_interpreter(config_text: str, interpreter: str) -> str:
    """Return pyscript.toml's text with its ``interpreter`` replaced."""
    text, count = re.subn(r"(?m)^interpreter\s*=.*$", f'interpreter = "{interpreter}"', config_text, count=1)
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
    shutil.copy2(pyc_path(gz), site / "py" / "pycache.zip")
    config = site / "pyscript.toml"
    config.write_text(set_interpreter(config.read_text(), LOADER))
    checks = {
        "py/engine.zip": sha256(site / "py" / "engine.zip"),
        "py/ui.zip": sha256(site / "py" / "ui.zip"),
        "vendor/pyodide/python_stdlib.zip": sha256(runtime / "python_stdlib.zip"),
    }
    warning = check_heap(report["heap_bytes"], runtime / "pyodide.asm.wasm")
    if warning:
        print(f"snapshot: WARNING: {warning}", file=sys.stderr)
    manifest = {
        "format": FORMAT,
        "id": sid,
        "file": name,
        "sha256": sha256(folder / name),
        "pyodide": report["pyodide_version"],
        "bytes": report["bytes"],
        "heap_bytes": report["heap_bytes"],
        "gzip_bytes": report["gzip_bytes"],
        "runs": report["runs"],
        "wasm_runs": report["wasm_runs"],
        "wasm_sha256": report["wasm_sha256"],
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
