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
    on_disk = sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "py").rglob("*.py") if "__pycache__" not in p.parts
    )
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
    with pytest.raises(SystemExit, match=r"stray\.py"):
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


def test_the_engine_bundle_carries_the_pinned_wheels_packages(tmp_path):
    """openskill (the rating's model) reaches the page inside py/engine.zip, with its licence."""
    (tmp_path / "py").mkdir()
    build_site.write_python(tmp_path)
    with zipfile.ZipFile(tmp_path / "py" / "engine.zip") as bundle:
        names = bundle.namelist()
    assert "openskill/__init__.py" in names and "openskill/models/weng_lin/plackett_luce.py" in names
    assert "openskill-6.2.0.dist-info/licenses/LICENSE" in names
    assert not [n for n in names if n.endswith(("RECORD", "METADATA", "WHEEL"))]


def test_a_wheel_that_differs_from_its_pinned_hash_stops_the_build(tmp_path):
    (wheels := tmp_path / "wheels").mkdir()
    (wheels / "openskill-6.2.0-py3-none-any.whl").write_bytes(b"not the wheel")
    with pytest.raises(SystemExit, match="does not match the hash"):
        build_site.page_wheels(wheels=wheels)
    with pytest.raises(SystemExit, match="is missing"):
        build_site.page_wheels(wheels=tmp_path)


def test_repository_config_asks_no_cdn():
    config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    assert (
        config["interpreter"] == "./js/pyodide-snapshot.mjs"
    )  # ours: it imports ../vendor/pyodide/pyodide.mjs
    assert 'from "../vendor/pyodide/pyodide.mjs"' in (ROOT / "js" / "pyodide-snapshot.mjs").read_text()
    assert "packages" not in config and "files" not in config
    for name in (
        "index.html",
        "pyscript.toml",
        "manifest.webmanifest",
        "js/boot.js",
        "js/sw.template.js",
        "js/online.js",  # "{}" is PeerJS's public broker: the bundle knows its host, this file names none
        "js/identity.js",
        "js/morph.js",
        "css/app.css",
    ):
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


def test_lockfile_pins_the_online_packages():
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    assert lock["node_modules/peerjs"]["version"].startswith("1.5.")
    assert lock["node_modules/qrcode-generator"]["version"].startswith("2.")
    assert lock["node_modules/peer"]["version"].startswith("1.") and lock["node_modules/peer"]["dev"]


def test_build_vendors_the_online_scripts_with_their_licences(built):
    out, _ = built
    sw = (out / "sw.js").read_text()
    for folder, script in (("peerjs", "peerjs.min.js"), ("qrcode", "qrcode.js")):
        text = (out / "vendor" / folder / script).read_text()
        assert len(text) > 10_000 and "sourceMappingURL" not in text
        assert "MIT" in (out / "vendor" / folder / "LICENSE.txt").read_text()
        assert f'"./vendor/{folder}/{script}"' in sw  # precached like every file: offline but for a room
    assert "window.Peer=" in (out / "vendor" / "peerjs" / "peerjs.min.js").read_text()
    assert "var qrcode = function" in (out / "vendor" / "qrcode" / "qrcode.js").read_text()


def test_service_worker_precaches_every_file_of_the_site(built):
    out, version = built
    sw = (out / "sw.js").read_text()
    assert f'"{version}"' in sw
    listed = set(
        json.loads(
            sw[
                sw.index("const FILES = ") + len("const FILES = ") : sw.index(
                    ";\n", sw.index("const FILES = ")
                )
            ]
        )
    )
    files = {
        "./" + p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and p.name not in ("sw.js", "version.json") and not build_site.is_gzip_copy(p)
    }
    assert files <= listed and "./" in listed
    assert not [
        name for name in listed if name.endswith((".wasm.gz", ".zip.gz", ".mjs.gz"))
    ]  # copies: not cached
    assert (
        "./index.html" in listed
        and "./vendor/pyodide/pyodide.asm.wasm" in listed
        and "./py/main.py" in listed
    )
    assert "./py/engine.zip" in listed and "./py/ui.zip" in listed
    assert "./js/online.js" in listed and "./js/identity.js" in listed  # rated play works offline too


def test_a_changed_file_is_a_new_version(built, tmp_path):
    out, version = built
    files = build_site.site_files(out)
    assert build_site.site_version(out, files) == version
    copy = tmp_path / "copy"
    import shutil

    shutil.copytree(out, copy)
    (copy / "css" / "app.css").write_text((copy / "css" / "app.css").read_text() + "\n/* changed */\n")
    assert build_site.site_version(copy, files) != version


def test_large_files_get_a_gzip_copy_that_unpacks_to_them(built):
    import gzip

    out, _ = built
    for name in (
        "vendor/pyodide/pyodide.asm.wasm",
        "vendor/pyodide/pyodide.asm.mjs",
        "py/engine.zip",
        "py/ui.zip",
    ):
        packed = (out / (name + ".gz")).read_bytes()
        assert gzip.decompress(packed) == (out / name).read_bytes(), name
        assert len(packed) < 0.5 * (out / name).stat().st_size, name
    # Not where gzip gains nothing: the stdlib zip holds deflated files, the snapshot is gzip already.
    assert not (out / "vendor" / "pyodide" / "python_stdlib.zip.gz").exists()
    assert not list((out / "snapshot").glob("*.gz.gz")) and not (out / "py" / "main.py.gz").exists()


def test_the_page_asks_for_what_the_start_needs_once_it_has_painted(built):
    out, _ = built
    html = (out / "index.html").read_text()
    assert build_site.START_MARK not in html
    listed = re.search(r'<script type="application/json" id="boneyard-start">([^<]+)</script>', html)
    assert listed, "the start's list of files"
    start = json.loads(listed.group(1))
    fetches, modules = start["fetch"], start["modules"]
    manifest = json.loads((out / "snapshot" / "manifest.json").read_text())
    assert fetches[:2] == ["snapshot/manifest.json", "snapshot/" + manifest["file"]]
    # No <link rel="preload"> nor module script in the page: boot.js asks for each file itself once the
    # loading screen has painted (from the service worker's cache on a return visit, where a preload
    # would go through the worker a second time), then starts the modules.
    assert 'rel="preload"' not in html and 'rel="modulepreload"' not in html
    assert '<script type="module"' not in html
    # The WebAssembly is not in the list: boot.js fetches it itself (through the service worker, whose
    # cached response keeps the compiled-code cache) and compiles it streamed; the loader takes that module.
    assert "vendor/pyodide/pyodide.asm.wasm" not in fetches
    boot = (ROOT / "js" / "boot.js").read_text()
    # A return visit compiles it on the page's helper thread (which also reads the snapshot), a first
    # visit on the page; either way the loader takes the module from window.boneyardWasm.
    assert "WebAssembly.compileStreaming(plainFetch(url))" in boot and "window.boneyardWasm" in boot
    assert "WebAssembly.compileStreaming(fetch(d.url))" in boot and 'askHelper("wasm"' in boot
    assert "caches.match" in boot and "boneyard-start" in boot
    assert '"js/pyodide-snapshot.mjs", "vendor/pyscript/core.js"' in boot
    loader = (ROOT / "js" / "pyodide-snapshot.mjs").read_text()
    assert (
        "globalThis.boneyardWasm" in loader and "WebAssembly.compileStreaming(plainFetch(WASM_URL))" in loader
    )
    assert {"py/engine.zip", "py/ui.zip", "py/pycache.zip", "pyscript.toml", "py/main.py"} <= set(fetches)
    assert {"js/pyodide-snapshot.mjs", "vendor/pyodide/pyodide.mjs", "vendor/pyscript/core.js"} <= set(
        modules
    )
    assert any(m.startswith("vendor/pyscript/core-") for m in modules)
    for name in fetches + modules:
        assert (out / name).is_file(), name
    # The list and boot.js come first in the page, before the stylesheet.
    head = html[: html.index("</head>")]
    assert head.index('id="boneyard-start"') < head.index("<script>\n") < head.index("<style>")


def test_the_byte_code_is_checked_hash_pyc_for_what_the_snapshot_lacks(built):
    out, _ = built
    with zipfile.ZipFile(out / "py" / "pycache.zip") as bundle:
        names = bundle.namelist()
        pyc = bundle.read(
            "ui/browser/__pycache__/dom.cpython-314.pyc"
        )  # the port imports pyscript: never snapshot
    assert int.from_bytes(pyc[4:8], "little") == 3  # hash-based and checked: never used if stale
    assert "pyscript/__pycache__/__init__.cpython-314.pyc" in names
    assert "ui/__pycache__/html.cpython-314.pyc" not in names  # in the snapshot already


def test_the_server_sends_gzip_copies_to_browsers_that_take_them(built):
    import gzip
    import urllib.request

    from serve import serve_in_thread

    out, _ = built
    server, url = serve_in_thread(out)
    try:
        wasm = url + "/vendor/pyodide/pyodide.asm.wasm"
        packed = urllib.request.urlopen(urllib.request.Request(wasm, headers={"Accept-Encoding": "gzip, br"}))
        assert packed.headers["Content-Encoding"] == "gzip"
        assert packed.headers["Content-Type"] == "application/wasm"
        assert (
            gzip.decompress(packed.read()) == (out / "vendor" / "pyodide" / "pyodide.asm.wasm").read_bytes()
        )
        plain = urllib.request.urlopen(urllib.request.Request(wasm, headers={"Accept-Encoding": "identity"}))
        assert plain.headers["Content-Encoding"] is None and plain.read()[:4] == b"\0asm"
        stdlib = urllib.request.urlopen(
            urllib.request.Request(
                url + "/vendor/pyodide/python_stdlib.zip", headers={"Accept-Encoding": "gzip"}
            )
        )
        assert stdlib.headers["Content-Encoding"] is None  # no copy: sent as it is
        import os
        import time

        css = out / "css" / "app.css"
        later = time.time() + 10
        os.utime(css, (later, later))  # changed after the build: its copy is stale
        fresh = urllib.request.urlopen(
            urllib.request.Request(url + "/css/app.css", headers={"Accept-Encoding": "gzip"})
        )
        assert fresh.headers["Content-Encoding"] is None and fresh.read() == css.read_bytes()
    finally:
        server.shutdown()


def deferred_template(html: str) -> str:
    """Return the text of the page's template of deferred stylesheets."""
    return html[html.index(build_site.DEFERRED_TEMPLATE) : html.index("</template>")]


def test_only_the_loading_screens_stylesheets_block_the_first_paint():
    html = (ROOT / "index.html").read_text()
    blocking = re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)
    deferred = re.findall(r'<link rel="stylesheet" href="([^"]+)" media="print" data-deferred>', html)
    assert blocking == ["css/app.css"]  # and the build writes it into the page (below)
    assert sorted(deferred) == sorted(
        [f"css/{p.name}" for p in (ROOT / "css").glob("*.css") if p.name != "app.css"]
        + ["vendor/pyscript/core.css"]
    )
    # Not even requested while the page parses: they wait in a template that boot.js empties after the
    # first paint.
    assert all(f'href="{href}"' in deferred_template(html) for href in deferred)


def test_the_loading_screen_needs_no_other_file_to_paint(built):
    """The built page carries the loading screen's CSS, boot.js and the logo itself; the files stay beside
    it, and the rest of app.css arrives without holding up the first paint."""
    out, _ = built
    html = (out / "index.html").read_text()
    assert 'src="js/boot.js"' not in html and build_site.STYLESHEET_TAG not in html
    css = (ROOT / "css" / "app.css").read_text()
    first = build_site.first_paint_css(css)
    assert f"<style>\n{first}</style>" in html and css not in html
    assert ".loading {" in first and ".topbar" not in first and len(first) < len(css) / 3
    # The whole stylesheet: not render-blocking (print until it has loaded), and marked once it has,
    # which boot.js waits for before it shows the app.
    assert html.count('href="css/app.css"') == 1 and build_site.DEFERRED_STYLESHEET_TAG in html
    assert build_site.DEFERRED_STYLESHEET_TAG in deferred_template(html)
    assert (
        'id="app-css"' in build_site.DEFERRED_STYLESHEET_TAG
        and "dataset.loaded" in build_site.DEFERRED_STYLESHEET_TAG
    )
    assert (ROOT / "js" / "boot.js").read_text() in html
    loading = html[html.index('<div id="loading"') :]
    assert "<svg" in loading[: loading.index("</h1>")] and build_site.LOGO_MARK not in html
    assert (out / "css" / "app.css").is_file() and (out / "js" / "boot.js").is_file()
    # The player reads what the wait is for, never the runtime's name.
    assert "Python" not in loading[: loading.index('id="loading-error"')]


def test_the_manifest_describes_the_app_and_its_screenshots_match_their_files():
    """The install dialog shows a description and screenshots (tools/make_icons.py --screenshots)."""
    import struct

    manifest = json.loads((ROOT / "manifest.webmanifest").read_text())
    assert len(manifest["description"]) > 80
    shots = manifest["screenshots"]
    assert {s["form_factor"] for s in shots} == {"wide", "narrow"}
    for shot in shots:
        data = (ROOT / shot["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and shot["type"] == "image/png"
        width, height = struct.unpack(">II", data[16:24])
        assert shot["sizes"] == f"{width}x{height}" and shot["label"]
        assert len(data) < 400_000


def run_node(script: str, *args: str, timeout: int = 120) -> dict:
    """Run ``script`` as an ES module under Node with ``args``; return the JSON object it prints last."""
    import shutil
    import subprocess

    if not shutil.which("node"):
        pytest.skip("node is not installed (make test installs it)")
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


COUNT_MODULES = """
const indexURL = process.argv[1];
let made = 0;
const Plain = WebAssembly.Module;
WebAssembly.Module = new Proxy(Plain, { construct(target, args) { made++; return new target(...args); } });
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const pyodide = await loadPyodide({ indexURL });
console.log(JSON.stringify({ made, answer: pyodide.runPython("import json; json.dumps([1, 2])") }));
"""


def test_the_runtime_wraps_its_js_functions_in_one_module(built):
    """The vendored loader is patched (tools/pyodide_patch.py) and Pyodide still starts and runs Python with it:
    Node boots the built runtime and counts the wasm modules compiled one by one (261 without the patch)."""
    import pyodide_patch

    out, _ = built
    patched = (out / "vendor" / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    assert pyodide_patch.MARKER in patched
    assert pyodide_patch.patch_source(patched) == (patched, "already patched")
    original = (ROOT / "node_modules" / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    assert pyodide_patch.patch_source(original) == (patched, "patched")
    # The factory, nearly the whole file, is a parenthesized function expression: V8 compiles it with the
    # file, off the main thread, instead of when the loader first calls it.
    assert patched.startswith(pyodide_patch.FACTORY_PATCHED)
    assert patched.rstrip().endswith(pyodide_patch.FACTORY_END_PATCHED)
    result = run_node(COUNT_MODULES, str(out / "vendor" / "pyodide") + "/")
    assert result["answer"] == "[1, 2]"
    assert result["made"] <= 5, f"{result['made']} wasm modules compiled one by one at the start"


COMPARE_GOT = """
const [patchedURL, plainURL] = process.argv.slice(1);
async function boot(indexURL) {
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  return (await loadPyodide({ indexURL }))._module;
}
const patched = await boot(patchedURL);
const plain = await boot(plainURL);
const names = Object.keys(plain.GOT).filter((name, i) => i % 25 === 0);
const differ = names.filter((name) => patched.GOTHandler.get(new Set(), name).value !== plain.GOT[name].value);
console.log(JSON.stringify({
  checked: names.length, differ, made: Object.keys(patched.GOT).length, plainMade: Object.keys(plain.GOT).length,
  table: patched.wasmTable.length, plainTable: plain.wasmTable.length,
}));
"""


def test_the_main_modules_got_entries_are_made_when_asked_for_with_the_same_values(built):
    """The patched loader hands out the same table slots and GOT values as Pyodide's own, making only the
    GOT entries something asked for (tools/pyodide_patch.py): Node boots both runtimes and compares them."""
    out, _ = built
    patched, plain = out / "vendor" / "pyodide", ROOT / "node_modules" / "pyodide"
    result = run_node(COMPARE_GOT, f"{patched}/", f"{plain}/", timeout=180)
    assert result["checked"] > 300 and result["differ"] == []
    assert result["table"] == result["plainTable"]  # every slot handed out as before, in the same order
    assert result["made"] < result["plainMade"] / 10, result


def test_a_loader_the_patch_does_not_know_is_left_as_it_came():
    """Another Pyodide version's loader is served untouched (the page is only slower), never half-patched."""
    import pyodide_patch

    text = "var reportUndefinedSymbols=()=>{};var addFunction=(func,sig)=>0;"
    served, outcome = pyodide_patch.patch_source(text)
    assert served == text
    assert outcome.startswith("left as it came")
