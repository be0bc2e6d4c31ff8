"""The HTML builder: escaping, Markup arithmetic, names isolated as right-to-left text, and a lint that
keeps markup out of f-strings in the browser layer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ui.html import FSI, PDI, Markup, attrs, h, join, name_attr, name_text, text

ROOT = Path(__file__).resolve().parent.parent
UI = ROOT / "py" / "ui"


def test_text_is_escaped_and_markup_passes_through():
    assert text("<b>&") == "&lt;b&gt;&amp;"
    assert text(Markup("<b>")) == "<b>"
    assert text(None) == "" and text(3) == "3"
    assert h("p", {"title": '"x" <y>'}, "a < b") == '<p title="&quot;x&quot; &lt;y&gt;">a &lt; b</p>'


def test_markup_plus_markup_stays_markup():
    both = h("b", {}, "x") + h("i", {}, "y")
    assert type(both) is Markup and both == "<b>x</b><i>y</i>"
    assert type(join([both, both])) is Markup


def test_markup_plus_text_escapes_the_text_either_way_round():
    right = h("b", {}, "x") + "<img src=x onerror=alert(1)>"
    left = "<script>" + h("b", {}, "x")
    assert type(right) is Markup and right == "<b>x</b>&lt;img src=x onerror=alert(1)&gt;"
    assert type(left) is Markup and left == "&lt;script&gt;<b>x</b>"
    assert h("p", {}, right) == "<p><b>x</b>&lt;img src=x onerror=alert(1)&gt;</p>"  # not escaped twice
    with pytest.raises(TypeError):
        h("b") + 3


def test_attributes_drop_none_and_false_keep_true_bare():
    assert (
        attrs({"class_": "a", "data_x": None, "hidden": False, "disabled": True, "aria_label": "a&b"})
        == ' class="a" disabled aria-label="a&amp;b"'
    )
    assert h("br") == "<br>" and h("svg", {"viewBox": "0 0 1 1"}) == '<svg viewBox="0 0 1 1"></svg>'


@pytest.mark.parametrize("bad", ["img src=x", "b><script", "", "1x", 'a"b', "x/"])
def test_tag_and_attribute_names_must_be_plain_names(bad):
    with pytest.raises(ValueError):
        h(bad)
    with pytest.raises(ValueError):
        h("p", {bad: "1"})


def test_a_name_is_isolated_in_text_and_in_attributes():
    evil = "\u202eevil <b>"
    assert name_text(evil) == '<bdi class="name">\u202eevil &lt;b&gt;</bdi>'
    assert name_attr(evil) == FSI + evil + PDI
    sentence = h("p", {"aria_label": f"{name_attr(evil)}'s tiles"}, f"{name_attr(evil)} is thinking…")
    assert sentence == (
        f'<p aria-label="{FSI}\u202eevil &lt;b&gt;{PDI}&#x27;s tiles">'
        '<bdi class="name">\u202eevil &lt;b&gt;</bdi> is thinking…</p>'
    )


def test_a_names_own_isolates_cannot_break_out():
    # A PDI (or LRI/RLI/FSI) inside a name would close the isolate early or leave one open: they are dropped.
    sneaky = f"a{PDI}\u202eb\u2067c{FSI}"
    assert name_attr(sneaky) == f"{FSI}a\u202ebc{PDI}"
    assert name_text(sneaky) == '<bdi class="name">a\u202ebc</bdi>'
    # Text that merely contains the controls (not a name) never turns into anything but a <bdi> of escaped text.
    assert text(f"{FSI}<x>{PDI} {FSI}open") == f'<bdi class="name">&lt;x&gt;</bdi> {FSI}open'


# -- the lint: no markup in f-strings (or str.format / %) in py/ui ---------------------------------------

BUILDER = {("html.py", "attrs"), ("html.py", "h")}  # the one place that writes tags (from checked names)


def _markup_in(literal: str) -> bool:
    """Tell whether a string piece looks like the start of a tag: ``<svg``, ``</g>``, ``<!--``."""
    return any(
        literal[i + 1 : i + 2].isalpha() or literal[i + 1 : i + 2] in ("/", "!")
        for i, c in enumerate(literal)
        if c == "<"
    )


def markup_format_strings(path: Path) -> list[str]:
    """Return the places in a module where an f-string, ``.format`` or ``%`` interpolates into markup."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else func
            if (path.name, name) not in BUILDER:
                pieces: list[str] = []
                if isinstance(child, ast.JoinedStr):
                    pieces = [
                        v.value
                        for v in child.values
                        if isinstance(v, ast.Constant) and isinstance(v.value, str)
                    ]
                elif (
                    isinstance(child, ast.Call)
                    and isinstance(child.func, ast.Attribute)
                    and child.func.attr == "format"
                    and isinstance(child.func.value, ast.Constant)
                    and isinstance(child.func.value.value, str)
                ):
                    pieces = [child.func.value.value]
                elif (
                    isinstance(child, ast.BinOp)
                    and isinstance(child.op, ast.Mod)
                    and isinstance(child.left, ast.Constant)
                    and isinstance(child.left.value, str)
                ):
                    pieces = [child.left.value]
                if any(_markup_in(p) for p in pieces):
                    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                    found.append(f"{where}:{child.lineno}")  # type: ignore[attr-defined]
            visit(child, name)

    visit(tree, "")
    return found


def test_no_markup_is_built_by_interpolating_strings_in_the_browser_layer():
    found = [place for path in sorted(UI.rglob("*.py")) for place in markup_format_strings(path)]
    assert not found, (
        "build markup with h() (values are escaped there), not in a format string: " + ", ".join(found)
    )


def test_the_lint_catches_what_it_should(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "x = 1\n"
        "a = f'<circle r=\"{x}\"/>'\n"
        'b = "<g>{}</g>".format(x)\n'
        'c = "</svg%s>" % x\n'
        'd = f"{x} < {x}"\n'  # a comparison in words is not markup
        'e = f"Seat {x}"\n'
        'f = "<defs></defs>"\n',  # a constant without interpolation cannot carry a value
        encoding="utf-8",
    )
    assert markup_format_strings(sample) == ["sample.py:2", "sample.py:3", "sample.py:4"]
