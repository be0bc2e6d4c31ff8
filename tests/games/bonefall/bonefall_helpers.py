"""Helpers for the Bonefall tests: hand-built boards and states."""

from __future__ import annotations

from boneyard.games.bonefall.sim import WIDTH, Board, BonefallState, new_state


def board_of(*pieces: tuple) -> Board:
    """Build a board from ``(kind, col, row, values..., piece)`` tuples.

    ``("h", col, row, a, b, p)``: horizontal domino, ``a`` at (col, row), ``b`` to its right;
    ``("v", col, row, a, b, p)``: vertical domino, ``a`` on top at (col, row), ``b`` below;
    ``("s", col, row, a, p)``: a single square (a half whose partner is gone).
    """
    board = Board()
    for kind, col, row, *rest in pieces:
        if kind == "h":
            a, b, p = rest
            board.place(col, row, 0, a, b, p)
        elif kind == "v":
            a, b, p = rest
            board.place(col, row, 1, a, b, p)
        else:
            a, p = rest
            board.put(col, row, a, p)
    return board


def cell(board: Board, col: int, row: int) -> int:
    """Return the value at (col, row), -1 when empty."""
    return board.val[row * WIDTH + col]


def state_with(
    board: Board,
    values: tuple[int, int],
    bag: list[tuple[int, int]] | None = None,
    mode: str = "sprint",
    cascade_steps: int = 0,
) -> BonefallState:
    """Return a game whose board is ``board`` and whose falling domino shows ``values`` at the spawn."""
    state = new_state(seed=7, mode=mode, cascade_steps=cascade_steps)
    state.board = board
    state.values = values
    state.dominoes[-1] = values
    state.piece = 1000
    if bag is not None:
        state.bag = list(bag)
    return state


def check_invariants(state: BonefallState) -> None:
    """Assert the structural invariants: no overlaps, linked halves, nothing floating at rest."""
    board = state.board
    seen: dict[int, list[int]] = {}
    for i, v in enumerate(board.val):
        if v < 0:
            assert board.pid[i] == 0 and board.mate[i] == -1
            continue
        seen.setdefault(board.pid[i], []).append(i)
        m = board.mate[i]
        if m >= 0:
            assert board.mate[m] == i and board.pid[m] == board.pid[i]
            assert m - i in (1, -1, WIDTH, -WIDTH)
            if abs(m - i) == 1:
                assert m // WIDTH == i // WIDTH
    for cells in seen.values():
        assert len(cells) <= 2  # a domino's halves are never in two places at once
    if state.phase == "falling":
        assert board.fits(state.col, state.row, state.orientation)  # the falling domino overlaps nothing
        assert board.is_at_rest()
        assert board.find_matches() == []
