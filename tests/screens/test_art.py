"""Boneyard's own art under CPython: the logo and the game cards' illustrations."""

from __future__ import annotations

import ast
from pathlib import Path

from ui import art

ROOT = Path(__file__).resolve().parents[2]


def test_logo_file_is_the_logo_the_page_draws():
    assert (ROOT / "icons" / "logo.svg").read_text() == art.logo_file()


def test_logo_is_decorative_unless_named():
    assert 'aria-hidden="true"' in art.logo(28) and "role=" not in art.logo(28)
    named = art.logo(64, label="Boneyard")
    assert 'role="img"' in named and "<title>Boneyard</title>" in named and "aria-hidden" not in named


def test_every_game_has_its_own_card_art_in_theme_classes():
    from boneyard.games import GAMES

    for game_id in GAMES:
        assert game_id in art.CARD_ART
        svg = art.card_art(game_id)
        assert svg.startswith("<svg") and 'aria-hidden="true"' in svg and f"card-art-{game_id}" in svg
        assert "#fff" not in svg.lower()  # colours come from the theme's classes, not fixed white


def test_the_triangles_card_is_a_legal_layout_with_tiles_printed_ascending_clockwise():
    from boneyard.games.triangles.rules import Board, corner_values

    board = Board()
    for cell, values in art.TRIANGLE_STRIP:
        tile = tuple(sorted(values))
        assert any(corner_values(tile, r) == values for r in range(3)), (cell, values)
        assert board.refusal(cell, values) is None, (cell, values)
        board.place(cell, values)
    assert len({tuple(sorted(v)) for _, v in art.TRIANGLE_STRIP}) == len(art.TRIANGLE_STRIP)


def test_the_heptalion_card_is_the_top_of_the_published_diamond_with_fitting_dominoes():
    from boneyard.games.heptalion.board import ORIGINAL_ROWS

    assert [r.rstrip() for r in ORIGINAL_ROWS[: len(art.HEPTALION_ROWS)]] == [
        r.rstrip() for r in art.HEPTALION_ROWS
    ]
    for (r0, c0), (r1, c1) in (art.HEPTALION_FACE_DOWN, art.HEPTALION_FACE_UP):
        assert abs(r0 - r1) + abs(c0 - c1) == 1
        assert art.HEPTALION_ROWS[r0][c0] != " " and art.HEPTALION_ROWS[r1][c1] != " "


def test_the_bonefall_card_shows_a_board_at_rest_where_the_two_twos_annihilate():
    from boneyard.games.bonefall.sim import HEIGHT, WIDTH, Board

    board = Board()
    rows = HEIGHT - 4  # the picture is the bottom four rows of the well
    cells = art.BONEFALL_SCENE + art.BONEFALL_PIECE
    by_cell = {(col, row): (value, link) for col, row, value, link in cells}
    step = {"right": (1, 0), "left": (-1, 0), "down": (0, 1), "up": (0, -1)}
    for piece, ((col, row), (value, link)) in enumerate(sorted(by_cell.items()), start=1):
        mate = None
        if link:
            dc, dr = step[link]
            other = by_cell[(col + dc, row + dr)]
            assert other[1] == {"right": "left", "left": "right", "down": "up", "up": "down"}[link]
            mate = (col + dc, row + dr + rows)
        board.put(col, row + rows, value, piece, mate)
    # one id per domino: halves that are partners share it
    for i, m in enumerate(board.mate):
        if m >= 0:
            board.pid[m] = board.pid[i] = min(board.pid[i], board.pid[m])
    assert board.is_at_rest()
    assert board.find_matches() == sorted((row + rows) * WIDTH + col for col, row in art.BONEFALL_MATCH)


def test_the_cards_draw_as_the_tables_do_without_loading_them_at_start():
    from boneyard.games.triangles import grid
    from boneyard.tiles import SYMBOLS
    from ui.games import domino_svg, heptalion_view

    for cell, _ in art.TRIANGLE_STRIP:
        assert [tuple(round(v, 9) for v in p) for p in art.cell_points(cell)] == [
            tuple(round(v, 9) for v in p) for p in grid.cell_points(cell)
        ]
    assert heptalion_view.SYMBOL_COLOURS is art.SYMBOL_COLOURS  # one drawing of the symbols for both
    for sym in SYMBOLS:
        assert art.symbol_shape(sym) == heptalion_view._symbol_shape(sym)
    ours = art.tile_svg(1, 0.5, 2, 1, ((0.5, 0.5, 6), (1.5, 0.5, 4)), 40)
    theirs = domino_svg.tile_svg(1, 0.5, 2, 1, ((0.5, 0.5, 6), (1.5, 0.5, 4)), 40)
    assert ours.count("<circle") == theirs.count("<circle") == 10 and 'class="tile-body"' in theirs
    tree = ast.parse((ROOT / "py" / "ui" / "art.py").read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith(("games", "boneyard.games"))], imported  # home loads fast
