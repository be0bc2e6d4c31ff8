"""The layers of the code, read from every module's imports with ``ast`` (so no shortcut creeps back in).

Every import counts: at module level or inside a function, and ``importlib.import_module`` (or a game's
``Lazy``/``LazyBots``/``lazy_engine``/``lazy_attributes``) with a literal name or ``f"{__name__}.x"``.
From the bottom up: ``boneyard.core`` and the games; the AI, the arena and the rooms above them (the
AI registers Expert with each game: ``LazyBots.provide``); the page (``ui``) on top. So:

- a game never imports the AI, the arena or the rooms;
- the engine (``boneyard``) never imports the page's modules (``js``, ``pyscript``, ``pyodide``, ``ui``);
- no module imports a module that imports it back (no cycle), but the UI's cycles of ``UI_CYCLES``;
- the lab tools (benches, fits) live in ``tools/``, not in the page's bundles, and import no private
  name of another module.
"""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402

PY = ROOT / "py"
# Modules of tools/ that measure or fit the engine; they import it, it never imports them.
LAB_TOOLS = ("dominoes_bench", "bonefall_autoplay", "heptalion_bench", "heptalion_leaf_fit")
# The UI's import cycles that remain (another piece of work removes them), each the modules it joins
# and why. The list may only shrink: every cycle found must lie within one of these groups, and a group
# with no cycle left fails too (take it off). ui.online.host <-> ui.online.join and ui.games.bonefall <->
# ui.games.bonefall_canvas are gone (``mark_turn`` and ``hud_values`` moved to the module both import);
# ui.hints <-> ui.kit is gone (the hints ask the game's part, ``ui.frame`` joins them to the kit).
UI_CYCLES: dict[tuple[str, ...], str] = {}
# Modules of the bundles with a command line, and why they ship: any other is a lab tool.
SHIPPED_COMMANDS = {
    "boneyard.arena": "the engine's bots-against-bots API (the arena contract), its command line beside it",
    "boneyard.games.heptalion.solve": "the puzzle's solver the page runs; its command line prints an answer",
    "boneyard.deals": "the deal's commitment and re-deal the page shows; its command line lets a player check them",
}
LAZY_CALLS = ("import_module", "Lazy", "LazyBots", "lazy_engine")


def modules() -> dict[str, Path]:
    """Return every module under py/ and the lab tools, by dotted name (``tools.x`` for a tool)."""
    found = {}
    for path in sorted(PY.rglob("*.py")):
        parts = path.relative_to(PY).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    for name in LAB_TOOLS:
        found[f"tools.{name}"] = ROOT / "tools" / f"{name}.py"
    return found


def _literal(node: ast.expr | None, name: str) -> str | None:
    """Return the module name a call's argument spells: a literal, or ``f"{__name__}..."``.

    Any other part of an f-string reads ``*``: ``f"{__name__}.{game_id}"`` may import any module
    of the package, so it counts as importing them all (that is how such a call hid a cycle).
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id == "__name__":
        return name
    if isinstance(node, ast.JoinedStr) and node.values:
        head, *rest = node.values
        if (
            isinstance(head, ast.FormattedValue)
            and isinstance(head.value, ast.Name)
            and head.value.id == "__name__"
        ):
            return name + "".join(str(v.value) if isinstance(v, ast.Constant) else "*" for v in rest)
    return None


def _relative(target: str, package: str, level: int) -> str:
    base = package.split(".")
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([target] if target else []))


@functools.cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(ast.parse(path.read_text(), str(path))))


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, str]]:
    """Yield (module imported, name imported from it or "") for every import in a module's source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ""
        elif isinstance(node, ast.ImportFrom):
            module = _relative(node.module or "", package, node.level) if node.level else node.module or ""
            for alias in node.names:
                member = f"{module}.{alias.name}"
                yield (member, "") if member in known else (module, alias.name)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called == "lazy_attributes" and len(node.args) > 1:  # (package, ".module", names)
                within, target = _literal(node.args[0], name), _literal(node.args[1], name)
                if within and target:
                    dots = len(target) - len(target.lstrip("."))
                    yield (_relative(target[dots:], within, dots) if dots else target), ""
            elif called in LAZY_CALLS and node.args:
                target = _literal(node.args[0], name)
                if target and not target.startswith("."):
                    yield target, ""


@functools.cache
def graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Return each module's imported names (all, as written) and its project modules imported (the edges)."""
    known = modules()
    written: dict[str, set[str]] = {}
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        written[name] = set()
        edges[name] = set()
        for module, _member in imports(name, path, known):
            written[name].add(module)
            if module.endswith(".*"):  # any module of the package (one level down)
                parent = module[:-2]
                edges[name].update(m for m in known if m.rpartition(".")[0] == parent)
                continue
            while module and module not in known:  # a.b.c imports the closest module it names
                module = module.rpartition(".")[0]
            if module and module != name:
                edges[name].add(module)
    return written, edges


def cycles(edges: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Return the modules of every import cycle (each strongly connected group of two or more), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, ...]] = set()

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.add(tuple(sorted(group)))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_games_never_import_the_ai_the_arena_or_the_rooms():
    written, _ = graph()
    above = ("boneyard.ai", "boneyard.arena", "boneyard.rooms")
    wrong = {
        name: sorted(m for m in found if m.startswith(above))
        for name, found in written.items()
        if name.startswith("boneyard.games")
    }
    assert {name: found for name, found in wrong.items() if found} == {}


EXPERT_CALLERS = """
import sys
from boneyard.games import GAMES
experts = [info for info in GAMES.values() if "expert" in info.levels]
assert len(experts) == 3 and "boneyard.ai" not in sys.modules  # listed, not loaded
try:
    experts[0].bot("expert")
except ValueError as exc:
    assert "import boneyard.ai" in str(exc), exc
else:
    raise AssertionError("Expert without the AI")
from ui.session import computer_bot  # the page's way: it imports the AI, which provides Expert
assert [computer_bot(info, "expert").__name__ for info in experts] == [f"expert_{i.id}" for i in experts]
"""


def test_the_ai_provides_expert_to_every_game_that_lists_it():
    """A game lists Expert without loading the AI; a session's computer seat gets it (a fresh Python)."""
    env = {**os.environ, "PYTHONPATH": str(PY)}
    done = subprocess.run([sys.executable, "-c", EXPERT_CALLERS], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_engine_never_imports_the_page():
    written, _ = graph()
    page = {"js", "pyscript", "pyodide", "ui"}
    wrong = {
        name: sorted(m for m in found if m.split(".")[0] in page)
        for name, found in written.items()
        if name.split(".")[0] == "boneyard"
    }
    assert {name: found for name, found in wrong.items() if found} == {}


def test_no_import_cycle_but_the_listed_ui_ones():
    _, edges = graph()
    found = cycles(edges)
    assert [c for c in found if not any(set(c) <= set(allowed) for allowed in UI_CYCLES)] == [], "a new cycle"
    gone = [allowed for allowed in UI_CYCLES if not any(set(c) <= set(allowed) for c in found)]
    assert gone == [], "a listed cycle is gone: take it off UI_CYCLES"


def test_the_cycle_finder_sees_imports_inside_functions_and_import_module(tmp_path):
    """The reader counts what a cycle hides behind: a function's import and a literal import_module."""
    one = tmp_path / "one.py"
    one.write_text("def later():\n    import importlib\n    return importlib.import_module('two')\n")
    two = tmp_path / "two.py"
    two.write_text("def later():\n    from one import later\n    return later\n")
    known = {"one": one, "two": two}
    edges = {name: {m for m, _ in imports(name, path, known) if m in known} for name, path in known.items()}
    assert cycles(edges) == {("one", "two")}


def test_no_lab_tool_in_the_bundles_and_no_private_name_in_the_tools():
    known = modules()
    bundled = [m for folder in build_site.BUNDLES.values() for m in build_site.bundle_members(folder, ROOT)]
    assert bundled and all(not Path(m).stem.startswith(("bench", "leaf_fit")) for m in bundled)
    for name in LAB_TOOLS:
        assert (ROOT / "tools" / f"{name}.py").is_file()
    commands = set()
    for source in bundled:
        name = ".".join(Path(source).relative_to("py").with_suffix("").parts).removesuffix(".__init__")
        if any(m == "argparse" for m, _ in imports(name, ROOT / source, known)):
            commands.add(name)
    assert commands == set(SHIPPED_COMMANDS), "a module with a command line in the bundle: move it to tools/"
    private = {
        f"{name}: {module}.{member}"
        for name, path in known.items()
        if name.startswith("tools.")
        for module, member in imports(name, path, known)
        if member.startswith("_") and not member.startswith("__")
    }
    assert private == set()


def test_only_the_page_port_touches_the_browser():
    """Only ``ui.browser.*`` and ``main`` import js/pyscript/pyodide (anywhere in a module); no module
    outside ``ui.browser`` imports ``ui.browser`` but ``main``: the app runs under CPython over a port."""
    written, _ = graph()
    browser = {"js", "pyscript", "pyodide"}

    def inside(name: str) -> bool:
        return name == "main" or name == "ui.browser" or name.startswith("ui.browser.")

    touch = {
        name: sorted(m for m in found if m.split(".")[0] in browser)
        for name, found in written.items()
        if not inside(name)
    }
    assert {name: found for name, found in touch.items() if found} == {}
    reach = {
        name: sorted(m for m in found if m == "ui.browser" or m.startswith("ui.browser."))
        for name, found in written.items()
        if not inside(name)
    }
    assert {name: found for name, found in reach.items() if found} == {}


def test_the_app_imports_under_cpython():
    """``import ui.app`` in a fresh Python, with no Pyodide: the controller is headless. Nor does it load
    openskill: the page's memory snapshot holds what ui.app imports, and the rating's model comes only
    with the first rating (the snapshot maker has no openskill, and dropped ui.app when it was needed)."""
    env = {**os.environ, "PYTHONPATH": str(PY)}
    code = "import sys, ui.app; assert not {'js', 'pyscript', 'pyodide', 'openskill'} & set(sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
