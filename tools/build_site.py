"""Build the static site into ``site/``: our files, the vendored runtime, and the service worker.

    python3 tools/build_site.py [--out site]

- Copies ``index.html``, ``pyscript.toml``, ``manifest.webmanifest``, ``css/``, ``icons/`` and ``js/``
  into the output folder, and the page's Python as ``py/main.py`` plus two zip bundles,
  ``py/engine.zip`` (every module of ``py/boneyard``) and ``py/ui.zip`` (``py/ui``), which the page's
  interpreter module unpacks before Python runs (so no module under ``py/`` can be missed).
- Copies the runtime from ``node_modules`` (installed by ``npm ci`` from ``package-lock.json``) into
  ``site/vendor/``: Pyodide's five runtime files and PyScript's ``dist`` without source maps.
- Adds the Pyodide memory snapshot and points the page's interpreter at its loader
  (``tools/snapshot.py``; made with Node, cached in ``build/snapshot/``). Without it the page boots
  the normal way.
- Writes ``sw.js`` from ``js/sw.template.js`` with the list of every file of the site and a version
  that is a hash of their contents, so a changed site is a new service worker with a new cache.

The output folder is what a static host serves; nothing in it needs a server of ours.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
SITE_ITEMS = ("index.html", "manifest.webmanifest", "css", "icons", "js")
# The page's Python arrives as two zip bundles that our interpreter module (js/pyodide-snapshot.mjs)
# fetches while Pyodide starts and unpacks into Python's working folder before any of it runs: one
# request each instead of one a module, and the engine's bundle is what the memory snapshot is checked
# against. py/main.py stays a file: it is the page's <script type="py" src>.
BUNDLES = {"py/engine.zip": "py/boneyard", "py/ui.zip": "py/ui"}
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed stamps: the same sources always make the same bytes


def python_sources(root: Path = ROOT) -> list[str]:
    """Return every Python module of the page, as paths relative to the repository, sorted."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in (root / "py").rglob("*.py")
        if "__pycache__" not in p.parts
    )


def bundle_members(folder: str, root: Path = ROOT) -> list[str]:
    """Return the modules of one bundle (``py/boneyard/...``), sorted."""
    return [source for source in python_sources(root) if source.startswith(folder + "/")]


def write_bundle(dest: Path, members: list[str], root: Path = ROOT) -> None:
    """Write a deterministic zip of ``members``, each stored (uncompressed) under its path below ``py/``.

    Stored, so the page copies each module out without inflating it (the host compresses the whole
    bundle in transit: see ``precompress``)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_STORED) as bundle:
        for source in members:
            info = zipfile.ZipInfo(source.removeprefix("py/"), date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            bundle.writestr(info, (root / source).read_bytes())


def write_python(out: Path, root: Path = ROOT) -> None:
    """Write the page's Python: the bundles, and py/main.py as a file."""
    bundled: list[str] = []
    for name, folder in BUNDLES.items():
        members = bundle_members(folder, root)
        write_bundle(out / name, members, root)
        bundled += members
    loose = [s for s in python_sources(root) if s not in bundled]
    if loose != ["py/main.py"]:
        raise SystemExit(f"build_site: modules outside py/boneyard and py/ui would not reach the page: {loose}")
    shutil.copy2(root / "py" / "main.py", out / "py" / "main.py")


def write_config(out: Path) -> None:
    """Write out/pyscript.toml (the repository's; the snapshot step points it at our loader)."""
    shutil.copy2(ROOT / "pyscript.toml", out / "pyscript.toml")


def copy_runtime(out: Path) -> None:
    """Copy Pyodide and PyScript from node_modules into out/vendor."""
    modules = ROOT / "node_modules"
    pyodide = modules / "pyodide"
    pyscript = modules / "@pyscript" / "core" / "dist"
    if not (pyodide / "pyodide.mjs").exists() or not (pyscript / "core.js").exists():
        raise SystemExit("build_site: node_modules lacks pyodide or @pyscript/core; run `npm ci` (make does)")
    (out / "vendor" / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, out / "vendor" / "pyodide" / name)
    shutil.copytree(pyscript, out / "vendor" / "pyscript", ignore=shutil.ignore_patterns("*.map"))


def add_snapshot(out: Path) -> None:
    """Add the memory snapshot (tools/snapshot.py); if it cannot be made, the site boots without it."""
    if str(ROOT / "tools") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools"))
    import snapshot

    try:
        snapshot.install(out)
    except Exception as error:  # noqa: BLE001 - any failure: build on, the page falls back
        print(f"build_site: no memory snapshot ({error}); the page will boot without it", file=sys.stderr)


def site_files(out: Path) -> list[str]:
    """Return every file of the built site (but the service worker and version.json), sorted."""
    return sorted(
        p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and p.name not in ("sw.js", "version.json")
    )


def site_version(out: Path, files: list[str]) -> str:
    """Return a short hash of the names and contents of the site's files."""
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0")
        digest.update(hashlib.sha256((out / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_service_worker(out: Path) -> str:
    """Write sw.js with the precache list and the version; return the version."""
    files = site_files(out)
    version = site_version(out, files)
    template = (ROOT / "js" / "sw.template.js").read_text()
    precache = ["./"] + [f"./{name}" for name in files]
    text = template.replace("__VERSION__", version).replace("__FILES__", json.dumps(precache, indent=1))
    (out / "sw.js").write_text(text)
    (out / "version.json").write_text(json.dumps({"version": version}) + "\n")
    return version


def build(out: Path) -> str:
    """Build the whole site into ``out``; return its version."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for item in SITE_ITEMS:
        src = ROOT / item
        if src.is_dir():
            shutil.copytree(src, out / item, ignore=shutil.ignore_patterns("*.template.js"))
        elif src.exists():
            shutil.copy2(src, out / item)
    write_python(out)
    write_config(out)
    copy_runtime(out)
    add_snapshot(out)
    return write_service_worker(out)


def main(argv: list[str] | None = None) -> int:
    """Build the site."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "site"))
    args = parser.parse_args(argv)
    version = build(Path(args.out))
    print(f"built {args.out} (version {version})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
