"""Boneyard's own art under CPython: the logo and the game cards' illustrations."""

from __future__ import annotations

from pathlib import Path

from ui import art

ROOT = Path(__file__).resolve().parents[2]


def test_logo_file_is_the_logo_the_page_draws():
    assert (ROOT / "icons" / "logo.svg").read_text() == art.logo_file()


def test_logo_is_decorative_unless_named():
    assert 'aria-hidden="true"' in art.logo(28) and "role=" not in art.logo(28)
    named = art.logo(64, label="Boneyard")
    assert 'role="img"' in named and "<title>Boneyard</title>" in named and "aria-hidden" not in named
