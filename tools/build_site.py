"""Build the static site into ``site/``: our files, the vendored runtime, and the service worker.

    python3 tools/build_site.py [--out site]

- Copies ``index.html``, ``pyscript.toml``, ``manifest.webmanifest``, ``css/``, ``icons/`` and ``js/``
  into the output folder, and the page's Python as ``py/main.py`` plus two zip bundles,
  ``py/engine.zip`` (every module of ``py/boneyard``) and ``py/ui.zip`` (``py/ui``), which the page's
  interpreter module unpacks before Python runs (so no module under ``py/`` can be missed).
- Adds to the engine's bundle the packages of the pure-Python wheels ``requirements-page.txt`` pins
  (downloaded by ``make site`` into ``build/wheels/``; each checked against its pinned SHA-256).
- Copies the runtime from ``node_modules`` (installed by ``npm ci`` from ``package-lock.json``) into
  ``site/vendor/``: Pyodide's five runtime files and PyScript's ``dist`` without source maps, and for
  online rooms PeerJS's browser bundle and qrcode-generator's script, each with its licence
  (``js/online.js`` loads them only when a room opens).
- Adds the Pyodide memory snapshot and points the page's interpreter at its loader
  (``tools/snapshot.py``; made with Node, cached in ``build/snapshot/``). Without it the page boots
  the normal way.
- Fills the ``<!-- boneyard:start -->`` line of ``index.html`` with the list of files the start needs
  (the snapshot, the runtime's files, the bundles) and of the JS modules it imports, which
  ``js/boot.js`` asks for at once once the loading screen has painted.
- Writes the loading screen's part of ``css/app.css``, ``js/boot.js`` and ``icons/logo.svg`` into
  ``index.html`` itself, so the loading screen paints without waiting for another file; the whole
  ``app.css`` loads beside it without holding up that first paint (boot.js shows the app once it has).
- Writes a gzip copy (``name.gz``) beside each large file that compresses well (the runtime, the
  bundles): a host that serves precompressed files (``tools/serve.py``, nginx's ``gzip_static``,
  Caddy's ``precompressed``) sends those instead, a third of the bytes. Other hosts ignore them.
- Writes ``sw.js`` from ``js/sw.template.js`` with the list of every file of the site and a version
  that is a hash of their contents, so a changed site is a new service worker with a new cache.

The output folder is what a static host serves; nothing in it needs a server of ours.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import sys
import zipfile
from pathlib import Path

from pyodide_patch import patch_runtime  # tools/, beside this file

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Online rooms' classic scripts (loaded by js/online.js only when a room opens), with their licences:
# (package in node_modules, its script, its licence or None when the script's header carries it, folder).
ONLINE_VENDOR = (
    ("peerjs", "dist/peerjs.min.js", "LICENSE", "vendor/peerjs"),
    ("qrcode-generator", "dist/qrcode.js", None, "vendor/qrcode"),
)
SITE_ITEMS = ("index.html", "manifest.webmanifest", "css", "icons", "js")
# The page's Python arrives as two zip bundles that our interpreter module (js/pyodide-snapshot.mjs)
# fetches while Pyodide starts and unpacks into Python's working folder before any of it runs: one
# request each instead of one a module, and the engine's bundle is what the memory snapshot is checked
# against. py/main.py stays a file: it is the page's <script type="py" src>.
BUNDLES = {"py/engine.zip": "py/boneyard", "py/ui.zip": "py/ui"}
PAGE_REQUIREMENTS = ROOT / "requirements-page.txt"
WHEELS = ROOT / "build" / "wheels"  # where `make site` downloads the page's wheels (git-ignored)
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed stamps: the same sources always make the same bytes
START_MARK = "<!-- boneyard:start -->"  # the files boot.js fetches at once (start_fetches)
LOGO_MARK = "<!-- boneyard:logo -->"  # the loading screen's logo: icons/logo.svg, written in by the build
STYLESHEET_TAG = '<link rel="stylesheet" href="css/app.css">'
# The whole app.css, added to the page with the other deferred sheets once the loading screen has painted
# (js/boot.js takes them out of index.html's template and turns them to all media), and the app shown only
# once it has loaded (data-loaded).
DEFERRED_TEMPLATE = '<template id="deferred-styles">'
DEFERRED_STYLESHEET_TAG = (
    '<link rel="stylesheet" href="css/app.css" id="app-css" media="print" data-deferred '
    "onload=\"this.dataset.loaded='true'\" onerror=\"this.dataset.loaded='failed'\">"
)
FIRST_PAINT_END = "/* -- end of the loading screen:"  # app.css: what comes before is the loading screen's
BOOT_TAG = '<script src="js/boot.js"></script>'
PYSCRIPT_START_CHUNKS = (
    "core-",
    "toml-",
    "deprecations-manager-",
    "donkey-",
    "error-",
    "py-editor-",
    "py-game-",
    "py-terminal-",
)
GZIP_CACHE = ROOT / "build" / "gz"  # gzip copies of the runtime's files, by content hash (git-ignored)
GZIP_MIN_BYTES = 8192  # smaller files gain nothing worth a second file
GZIP_MAX_RATIO = 0.9  # keep a gzip copy only if it saves at least a tenth (not for zips of deflated files)
GZIP_SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".zip", ".css", ".html")


def python_sources(root: Path = ROOT) -> list[str]:
    """Return every Python module of the page, as paths relative to the repository, sorted."""
    return sorted(
        p.relative_to(root).as_posix() for p in (root / "py").rglob("*.py") if "__pycache__" not in p.parts
    )


def bundle_members(folder: str, root: Path = ROOT) -> list[str]:
    """Return the modules of one bundle (``py/boneyard/...``), sorted."""
    return [source for source in python_sources(root) if source.startswith(folder + "/")]


def page_wheels(requirements: Path = PAGE_REQUIREMENTS, wheels: Path = WHEELS) -> list[Path]:
    """Return the pinned wheels of ``requirements``, each checked against its SHA-256; stop when one is
    missing or differs (``make site`` downloads them)."""
    found = []
    for line in requirements.read_text().splitlines():
        spec = line.split("#")[0].split()
        if not spec:
            continue
        name, _, version = spec[0].partition("==")
        digest = next((w.removeprefix("--hash=sha256:") for w in spec if w.startswith("--hash=sha256:")), "")
        wheel = wheels / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
        if not wheel.is_file():
            raise SystemExit(f"build_site: {wheel.name} is missing: `make site` downloads it into {wheels}")
        if hashlib.sha256(wheel.read_bytes()).hexdigest() != digest:
            raise SystemExit(
                f"build_site: {wheel.name} does not match the hash pinned in {requirements.name}"
            )
        found.append(wheel)
    return found


def wheel_files(wheel: Path) -> list[tuple[str, bytes]]:
    """Return a wheel's package files and its licence, as (path in the bundle, bytes), sorted."""
    with zipfile.ZipFile(wheel) as archive:
        return [
            (name, archive.read(name))
            for name in sorted(archive.namelist())
            if not name.endswith("/")
            and (".dist-info/" not in name or "/licenses/" in name or name.endswith("/LICENSE"))
        ]


def write_bundle(
    dest: Path, members: list[str], root: Path = ROOT, extra: list[tuple[str, bytes]] | None = None
) -> None:
    """Write a deterministic zip of ``members``, each stored (uncompressed) under its path below ``py/``,
    then ``extra`` files (a wheel's package) under their own paths.

    Stored, so the page copies each module out without inflating it (the host compresses the whole
    bundle in transit: see ``precompress``)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    files = [(source.removeprefix("py/"), (root / source).read_bytes()) for source in members]
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_STORED) as bundle:
        for name, data in files + (extra or []):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            bundle.writestr(info, data)


def write_python(out: Path, root: Path = ROOT) -> None:
    """Write the page's Python: the bundles (the engine's with the pinned wheels' packages), and
    py/main.py as a file."""
    bundled = [m for folder in BUNDLES.values() for m in bundle_members(folder, root)]
    loose = [s for s in python_sources(root) if s not in bundled]
    if loose != ["py/main.py"]:
        raise SystemExit(
            f"build_site: modules outside py/boneyard and py/ui would not reach the page: {loose}"
        )
    library = [file for wheel in page_wheels() for file in wheel_files(wheel)]
    for name, folder in BUNDLES.items():
        write_bundle(
            out / name, bundle_members(folder, root), root, library if folder == "py/boneyard" else None
        )
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
    patch_runtime(out / "vendor" / "pyodide")  # its JS functions wrapped in one module at start
    shutil.copytree(pyscript, out / "vendor" / "pyscript", ignore=shutil.ignore_patterns("*.map"))
    copy_online_vendor(out, modules)


def licence_header(script: str) -> str:
    """Return the leading comment block of a script (where qrcode-generator states its MIT licence)."""
    lines = []
    for line in script.splitlines():
        if not line.startswith("//"):
            break
        lines.append(line.removeprefix("//").removeprefix(" ").rstrip("-").rstrip())
    return "\n".join(lines).strip() + "\n"


def copy_online_vendor(out: Path, modules: Path) -> None:
    """Copy the online rooms' scripts and licences into out/vendor, without source-map comments."""
    for package, script, licence, folder in ONLINE_VENDOR:
        source = modules / package / script
        if not source.exists():
            raise SystemExit(f"build_site: node_modules lacks {package}; run `npm ci` (make does)")
        dest = out / folder
        dest.mkdir(parents=True)
        text = source.read_text()
        kept = [line for line in text.splitlines() if not line.startswith("//# sourceMappingURL=")]
        (dest / source.name).write_text("\n".join(kept) + "\n")
        if licence is None:
            (dest / "LICENSE.txt").write_text(licence_header(text))
        else:
            shutil.copy2(modules / package / licence, dest / "LICENSE.txt")


def add_snapshot(out: Path) -> None:
    """Add the memory snapshot (tools/snapshot.py); if it cannot be made, the site boots without it."""
    if str(ROOT / "tools") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools"))
    import snapshot

    try:
        snapshot.install(out)
    except Exception as error:
        print(f"build_site: no memory snapshot ({error}); the page will boot without it", file=sys.stderr)


def is_gzip_copy(path: Path) -> bool:
    """Tell whether ``path`` is the gzip copy of another file of the site (``x.wasm.gz`` beside ``x.wasm``)."""
    return path.suffix == ".gz" and path.with_suffix("").is_file()


def site_files(out: Path) -> list[str]:
    """Return every file of the built site (but the service worker, version.json and gzip copies), sorted."""
    return sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and p.name not in ("sw.js", "version.json") and not is_gzip_copy(p)
    )


def start_fetches(out: Path) -> list[str]:
    """Return the files the start fetches, most urgent first (only those that exist).

    The snapshot (manifest, then heap) is the long pole; then what Pyodide reads as it starts, our
    bundles, and what PyScript reads (its config, our entry point). ``js/boot.js`` asks for each at once
    from the top of the page (from the service worker's cache on a return visit) and hands the response
    to whoever fetches it later. Not the WebAssembly: boot.js fetches it itself to compile it streamed
    (a preloaded response would lose Chromium's compiled-code cache)."""
    fetches = ["snapshot/manifest.json"]
    manifest = out / "snapshot" / "manifest.json"
    if manifest.exists():
        fetches.append("snapshot/" + json.loads(manifest.read_text())["file"])
    fetches += [
        "vendor/pyodide/python_stdlib.zip",
        "vendor/pyodide/pyodide-lock.json",
        *BUNDLES,
        "py/pycache.zip",
        "pyscript.toml",
        "py/main.py",
    ]
    return [name for name in fetches if (out / name).exists()]


def start_modules(out: Path) -> list[str]:
    """Return the JS modules the start imports, to preload (only those that exist).

    Our interpreter module, Pyodide's and PyScript's modules, which the page's module scripts import
    one after the other: preloaded, they are fetched and parsed before anyone asks for them."""
    modules = ["js/pyodide-snapshot.mjs", "vendor/pyodide/pyodide.mjs", "vendor/pyodide/pyodide.asm.mjs"]
    modules.append("vendor/pyscript/core.js")
    # PyScript's chunks that it imports on every start (core, the config's parser, its plugins).
    modules += sorted(
        p.relative_to(out).as_posix()
        for p in (out / "vendor" / "pyscript").glob("*.js")
        if p.name.startswith(PYSCRIPT_START_CHUNKS)
    )
    return [name for name in modules if (out / name).exists()]


def write_start(out: Path) -> None:
    """Fill out/index.html's start mark with the start's list (``start_json``)."""
    index = out / "index.html"
    text = index.read_text()
    tag = f'<script type="application/json" id="boneyard-start">{start_json(out)}</script>'
    index.write_text(text.replace(START_MARK, tag, 1))


def start_json(out: Path) -> str:
    """Return the start's list for boot.js as JSON, safe inside a script tag: the files it fetches at
    once (``fetch``) and the modules it preloads (``modules``), both once the loading screen has painted."""
    start = {"fetch": start_fetches(out), "modules": start_modules(out)}
    return json.dumps(start, separators=(",", ":")).replace("</", "<\\/")


def first_paint_css(css: str) -> str:
    """Return the part of app.css the loading screen needs: the themes, the page's base and its own rules.

    That is everything before app.css's ``end of the loading screen`` comment (about 5 KB of 22)."""
    end = css.find(FIRST_PAINT_END)
    if end < 0:
        raise SystemExit(f"build_site: css/app.css lacks its {FIRST_PAINT_END!r} comment")
    return css[:end]


def inline_first_paint(out: Path) -> None:
    """Write what the loading screen needs into out/index.html: its CSS, boot.js and the logo.

    The loading screen then paints as soon as the page has arrived, with no request of its own to wait
    for (on a return visit each would wait for the service worker to start), and the browser parses
    and styles no more than that screen before its first frame: the whole app.css waits with the other
    deferred stylesheets in the page's template (``DEFERRED_TEMPLATE``), which boot.js empties into the
    page once that frame is on the screen. The files stay in the site as well: the page's later files and
    older service workers refer to them."""
    index = out / "index.html"
    text = index.read_text()
    css = first_paint_css((out / "css" / "app.css").read_text())
    boot = (out / "js" / "boot.js").read_text()
    if "</style" in css.lower() or "</script" in boot.lower():
        raise SystemExit("build_site: app.css or boot.js holds a closing tag and cannot be written inline")
    if DEFERRED_TEMPLATE not in text:
        raise SystemExit(f"build_site: index.html lacks its {DEFERRED_TEMPLATE!r} for the whole app.css")
    for tag, inline in (
        (STYLESHEET_TAG, f"<style>\n{css}</style>"),
        (DEFERRED_TEMPLATE, f"{DEFERRED_TEMPLATE}\n  {DEFERRED_STYLESHEET_TAG}"),
        (BOOT_TAG, f"<script>\n{boot}</script>"),
    ):
        if tag in text:
            text = text.replace(tag, inline, 1)
    logo = out / "icons" / "logo.svg"
    if LOGO_MARK in text and logo.exists():
        text = text.replace(LOGO_MARK, logo.read_text().strip(), 1)
    index.write_text(text)


def gzip_bytes(data: bytes) -> bytes:
    """Return the gzip of ``data`` (deterministic), cached by content for large inputs."""
    if len(data) < 1 << 20:
        return gzip.compress(data, compresslevel=9, mtime=0)
    cached = GZIP_CACHE / (hashlib.sha256(data).hexdigest() + ".gz")
    if cached.exists():
        return cached.read_bytes()
    packed = gzip.compress(data, compresslevel=6, mtime=0)  # level 9: twice the time, 0.4% smaller
    GZIP_CACHE.mkdir(parents=True, exist_ok=True)
    part = cached.with_name(f"{cached.name}.{os.getpid()}.part")
    part.write_bytes(packed)
    part.replace(cached)
    return packed


def precompress(out: Path) -> list[str]:
    """Write ``name.gz`` beside each large file that gzip shrinks by a tenth or more; return their names."""
    written = []
    for name in site_files(out):
        path = out / name
        if path.suffix not in GZIP_SUFFIXES or path.stat().st_size < GZIP_MIN_BYTES:
            continue
        data = path.read_bytes()
        packed = gzip_bytes(data)
        if len(packed) <= GZIP_MAX_RATIO * len(data):
            path.with_name(path.name + ".gz").write_bytes(packed)
            written.append(name + ".gz")
    return written


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
    write_start(out)
    inline_first_paint(out)
    precompress(out)
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
