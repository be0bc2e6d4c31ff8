"""The Heptalion board: the diamond's spaces, their adjacency, symbol layouts and their checks.

The shape is the 11x11 diamond (cells with ``|row-5| + |col-5| <= 5``) without the central cross of
five cells: 56 spaces, numbered 0..55 in reading order (top row first, left to right). Two spaces are
adjacent when they share an edge; the 84 adjacent pairs (``EDGES``) are the only places a tile can go.

A layout (``Board``) gives every space one of the seven symbols of ``boneyard.tiles.SYMBOLS``. Its rows
are 11-character strings, one character a grid column, a space where there is no square. Three kinds:

- the original board (docs/architecture.md, "Heptalion"), where every tile has exactly three placements;
- random boards (``random_board``): each symbol 8 times, every tile at least two placements;
- lab boards (``lab_board``): original-style (every tile exactly three placements), genuinely different
  from the original beyond renaming symbols, rotating or reflecting the diamond.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...tiles import HEPTALION_TILES, SYMBOLS

__all__ = [
    "CENTRE",
    "EDGES",
    "LAB_BOARDS",
    "NEIGHBOURS",
    "ORIGINAL",
    "ORIGINAL_ROWS",
    "SIZE",
    "SPACES",
    "SPACE_AT",
    "TILES",
    "TILE_INDEX",
    "Board",
    "board_problems",
    "canonical_form",
    "equivalent",
    "lab_board",
    "parse_tile",
    "random_board",
    "tile_text",
]

SIZE = 11
CENTRE = 5
CROSS = {(5, 5), (4, 5), (6, 5), (5, 4), (5, 6)}

Space = int  # 0..55 in reading order
Tile = tuple[str, str]  # two symbol letters in SYMBOLS order


def _in_shape(row: int, col: int) -> bool:
    return abs(row - CENTRE) + abs(col - CENTRE) <= CENTRE and (row, col) not in CROSS


# (row, col) of every space, in reading order; SPACE_AT maps back.
SPACES: tuple[tuple[int, int], ...] = tuple(
    (r, c) for r in range(SIZE) for c in range(SIZE) if _in_shape(r, c)
)
SPACE_AT: dict[tuple[int, int], Space] = {rc: i for i, rc in enumerate(SPACES)}
NEIGHBOURS: tuple[tuple[Space, ...], ...] = tuple(
    tuple(
        SPACE_AT[(r + dr, c + dc)]
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
        if (r + dr, c + dc) in SPACE_AT
    )
    for r, c in SPACES
)
# Every pair of edge-adjacent spaces once, lower id first.
EDGES: tuple[tuple[Space, Space], ...] = tuple(
    (a, b) for a in range(len(SPACES)) for b in NEIGHBOURS[a] if a < b
)

TILES: tuple[Tile, ...] = HEPTALION_TILES
TILE_INDEX: dict[Tile, int] = {t: i for i, t in enumerate(TILES)}
SYMBOL_INDEX = {s: i for i, s in enumerate(SYMBOLS)}
# PAIR[i][j]: the tile index of symbols i and j (either order).
PAIR: tuple[tuple[int, ...], ...] = tuple(
    tuple(TILE_INDEX[(SYMBOLS[min(i, j)], SYMBOLS[max(i, j)])] for j in range(7)) for i in range(7)
)

assert len(SPACES) == 56 and len(EDGES) == 84 and len(TILES) == 28
# Checkerboard colours: 24 spaces of one colour, 32 of the other. Every domino covers one of each,
# so at most 24 tiles ever fit (why "placing all 28 tiles is impossible").
DARK: frozenset[Space] = frozenset(i for i, (r, c) in enumerate(SPACES) if (r + c) % 2 == 0)
assert len(DARK) == 24

ORIGINAL_ROWS: tuple[str, ...] = (
    "     X",
    "    CDS",
    "   XTDDT",
    "  LTTXDLC",
    " TSTP PLLL",
    "CSSD   CXXS",
    " LSCT SXXP",
    "  XCCSPPL",
    "   PCPPD",
    "    DLT",
    "     D",
)


def tile_text(tile: Tile) -> str:
    """Return a tile's text form, ``"T-P"`` (symbols in SYMBOLS order)."""
    return f"{tile[0]}-{tile[1]}"


def parse_tile(text: str) -> Tile:
    """Parse ``"T-P"`` or ``"P-T"`` into a tile; raise ValueError otherwise."""
    parts = text.strip().upper().split("-")
    if len(parts) != 2 or not all(len(p) == 1 and p in SYMBOLS for p in parts):
        raise ValueError(f"not a tile: {text!r} (two of the symbols {SYMBOLS} joined by '-')")
    a, b = sorted(parts, key=SYMBOL_INDEX.__getitem__)
    return (a, b)


def _rows_to_symbols(rows: Sequence[str]) -> str:
    """Read 11 rows into the 56 symbols in space order; raise ValueError on a wrong shape or letter."""
    if isinstance(rows, str) or len(rows) != SIZE:
        raise ValueError(f"a board has {SIZE} rows")
    out: list[str] = []
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row.rstrip()) > SIZE:
            raise ValueError(f"row {r} is not a string of at most {SIZE} characters")
        row = row.ljust(SIZE)
        for c, ch in enumerate(row):
            if (r, c) in SPACE_AT:
                if ch not in SYMBOLS:
                    raise ValueError(f"row {r}, column {c}: expected a symbol of {SYMBOLS}, got {ch!r}")
                out.append(ch)
            elif ch != " ":
                raise ValueError(f"row {r}, column {c}: {ch!r} where the board has no square")
    return "".join(out)


@dataclass(frozen=True)
class Board:
    """One symbol layout of the diamond: ``symbols[i]`` is the symbol of space ``i``."""

    symbols: str
    kind: str = "original"  # "original", "random", "lab" or "custom"
    seed: int | None = None  # the seed it was generated from (random and lab boards)

    def __post_init__(self) -> None:
        if len(self.symbols) != len(SPACES) or any(s not in SYMBOLS for s in self.symbols):
            raise ValueError(f"a board has {len(SPACES)} symbols of {SYMBOLS}")

    @classmethod
    def from_rows(cls, rows: Sequence[str], kind: str = "custom", seed: int | None = None) -> Board:
        """Build a board from 11 row strings (a space for no square); raise ValueError if malformed."""
        return cls(_rows_to_symbols(rows), kind, seed)

    @cached_property
    def rows(self) -> tuple[str, ...]:
        """Return the 11 rows, 11 characters each, a space where there is no square."""
        grid = [[" "] * SIZE for _ in range(SIZE)]
        for i, (r, c) in enumerate(SPACES):
            grid[r][c] = self.symbols[i]
        return tuple("".join(row) for row in grid)

    @cached_property
    def placements(self) -> tuple[tuple[tuple[Space, Space], ...], ...]:
        """Return, per tile index, its placements on the empty board: (space of tile[0], space of tile[1])."""
        found: list[list[tuple[Space, Space]]] = [[] for _ in TILES]
        for a, b in EDGES:
            sa, sb = self.symbols[a], self.symbols[b]
            if SYMBOL_INDEX[sa] > SYMBOL_INDEX[sb]:
                a, b = b, a
                sa, sb = sb, sa
            found[TILE_INDEX[(sa, sb)]].append((a, b))
        return tuple(tuple(p) for p in found)

    @cached_property
    def placement_masks(self) -> tuple[tuple[int, ...], ...]:
        """Return, per tile index, the bit masks of its placements (bit i = space i)."""
        return tuple(tuple((1 << a) | (1 << b) for a, b in ps) for ps in self.placements)

    def symbol_counts(self) -> dict[str, int]:
        """Return how many spaces show each symbol."""
        return {s: self.symbols.count(s) for s in SYMBOLS}

    def placement_counts(self) -> dict[str, int]:
        """Return, per tile text, its number of placements on the empty board."""
        return {tile_text(t): len(p) for t, p in zip(TILES, self.placements)}

    def name(self) -> str:
        """Return the display name of a game played on this board."""
        return {"original": "Heptalion", "random": "Heptalion (Random)"}.get(self.kind, "Heptalion (Lab)")

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-ready form (rows, kind, seed)."""
        return {"rows": list(self.rows), "kind": self.kind, "seed": self.seed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Board:
        """Rebuild from ``to_dict``; raise ValueError when malformed."""
        if not isinstance(data, dict) or "rows" not in data:
            raise ValueError("a board needs its rows")
        kind = data.get("kind", "custom")
        if kind not in ("original", "random", "lab", "custom"):
            raise ValueError(f"unknown board kind {kind!r}")
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise ValueError("a board seed is an integer or null")
        return cls.from_rows(data["rows"], kind, seed)


def board_problems(board: Board, min_placements: int = 3, exact: bool = True) -> list[str]:
    """List why ``board`` breaks the rules' properties (empty when it keeps them).

    Each symbol must appear 8 times, and every tile must have exactly ``min_placements`` placements
    (``exact``) or at least that many.
    """
    problems = [f"{s} appears {n} times, not 8" for s, n in board.symbol_counts().items() if n != 8]
    for text, n in board.placement_counts().items():
        if n < min_placements or (exact and n != min_placements):
            want = "exactly" if exact else "at least"
            problems.append(f"{text} has {n} placements, not {want} {min_placements}")
    return problems


ORIGINAL = Board.from_rows(ORIGINAL_ROWS, "original")
assert board_problems(ORIGINAL, 3, exact=True) == [], board_problems(ORIGINAL)
assert ORIGINAL.rows[5] == "CSSD   CXXS"


# ----------------------------------------------------------------------------------------------
# Generation: local search over symbol layouts, swapping two spaces' symbols.

_EDGES_OF: tuple[tuple[tuple[Space, Space], ...], ...] = tuple(
    tuple(e for e in EDGES if i in e) for i in range(len(SPACES))
)


def _pair_counts(sym: list[int]) -> list[int]:
    counts = [0] * len(TILES)
    for a, b in EDGES:
        counts[PAIR[sym[a]][sym[b]]] += 1
    return counts


def _search(
    rng: random.Random, cost_of: Callable[[int], int], max_steps: int, temperature: float
) -> list[int] | None:
    """Swap symbols until ``cost_of(count)`` summed over the tiles is 0; return the layout or None."""
    sym = [i for i in range(7) for _ in range(8)]
    rng.shuffle(sym)
    counts = _pair_counts(sym)
    cost = sum(cost_of(n) for n in counts)
    n = len(sym)
    for _ in range(max_steps):
        if cost == 0:
            return sym
        a = rng.randrange(n)
        b = rng.randrange(n)
        if sym[a] == sym[b]:
            continue
        touched = set(_EDGES_OF[a]) | set(_EDGES_OF[b])
        before = [PAIR[sym[x]][sym[y]] for x, y in touched]
        sym[a], sym[b] = sym[b], sym[a]
        after = [PAIR[sym[x]][sym[y]] for x, y in touched]
        changed: dict[int, int] = {}
        for t in before:
            changed[t] = changed.get(t, 0) - 1
        for t in after:
            changed[t] = changed.get(t, 0) + 1
        delta = sum(cost_of(counts[t] + d) - cost_of(counts[t]) for t, d in changed.items() if d)
        if delta <= 0 or (temperature > 0 and rng.random() < pow(2.718281828, -delta / temperature)):
            for t, d in changed.items():
                counts[t] += d
            cost += delta
        else:
            sym[a], sym[b] = sym[b], sym[a]
    return sym if cost == 0 else None


def _deficit2(n: int) -> int:
    return 2 - n if n < 2 else 0


def random_board(seed: int) -> Board:
    """Generate the random board of ``seed``: each symbol 8 times, every tile at least 2 placements."""
    rng = random.Random(seed)
    while True:
        sym = _search(rng, _deficit2, 20_000, 0.0)
        if sym is not None:
            board = Board("".join(SYMBOLS[s] for s in sym), "random", seed)
            assert not board_problems(board, 2, exact=False)
            return board


def _off3(n: int) -> int:
    return (n - 3) * (n - 3)


def lab_search(seed: int, max_restarts: int = 1000, steps: int = 60_000) -> Board:
    """Search for an original-style board (every tile exactly 3 placements) from ``seed``.

    Simulated annealing over swaps with restarts; slow (seconds), so the lab uses ``LAB_BOARDS``.
    """
    rng = random.Random(seed)
    for _ in range(max_restarts):
        sym = _search(rng, _off3, steps, 0.6)
        if sym is not None:
            board = Board("".join(SYMBOLS[s] for s in sym), "lab", seed)
            if not board_problems(board, 3, exact=True) and not equivalent(board, ORIGINAL):
                return board
    raise RuntimeError(f"no original-style board found from seed {seed}")


# ----------------------------------------------------------------------------------------------
# Equivalence: the diamond's eight symmetries (rotations, reflections) and renaming the symbols.

_TRANSFORMS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda dr, dc: (dr, dc),
    lambda dr, dc: (dc, -dr),
    lambda dr, dc: (-dr, -dc),
    lambda dr, dc: (-dc, dr),
    lambda dr, dc: (dr, -dc),
    lambda dr, dc: (-dr, dc),
    lambda dr, dc: (dc, dr),
    lambda dr, dc: (-dc, -dr),
)


def _shift(offset: tuple[int, int]) -> tuple[int, int]:
    return offset[0] + CENTRE, offset[1] + CENTRE


# SYMMETRIES[g][i]: the space that space i goes to under symmetry g.
SYMMETRIES: tuple[tuple[Space, ...], ...] = tuple(
    tuple(SPACE_AT[_shift(f(r - CENTRE, c - CENTRE))] for r, c in SPACES) for f in _TRANSFORMS
)


def canonical_form(board: Board) -> str:
    """Return a form equal for two boards exactly when one is the other up to symmetry and renaming."""
    best = None
    for perm in SYMMETRIES:
        moved = [""] * len(SPACES)
        for i, j in enumerate(perm):
            moved[j] = board.symbols[i]
        names: dict[str, str] = {}
        for s in moved:
            if s not in names:
                names[s] = SYMBOLS[len(names)]
        text = "".join(names[s] for s in moved)
        if best is None or text < best:
            best = text
    assert best is not None
    return best


def equivalent(a: Board, b: Board) -> bool:
    """Tell whether two boards are the same up to rotation, reflection and renaming the symbols."""
    return canonical_form(a) == canonical_form(b)


# Original-style boards found by ``lab_search(seed)`` for seeds 0..7, kept as data: the search takes
# 1.5 s median (up to 13 s) under CPython over 30 seeds, too slow for the page. Each is checked at import (8 of each symbol, every tile exactly 3 placements,
# not equivalent to the original nor to each other).
LAB_ROWS: tuple[tuple[str, ...], ...] = (
    (
        "     P     ",
        "    DPL    ",
        "   CCPCT   ",
        "  PXSPTTT  ",
        " DLSP LSXX ",
        "CCLC   STXL",
        " XLDT SSDX ",
        "  SDLLTCX  ",
        "   TPXPC   ",
        "    DDD    ",
        "     S     ",
    ),
    (
        "     C     ",
        "    TPL    ",
        "   SDPSL   ",
        "  XCXXTDL  ",
        " XXSD TTLD ",
        "CPSS   XLXT",
        " PPDD SSTP ",
        "  DDCTTCP  ",
        "   CCCLX   ",
        "    LLP    ",
        "     S     ",
    ),
    (
        "     L     ",
        "    PCC    ",
        "   CXTDT   ",
        "  LLPPDDL  ",
        " XSLT SLXD ",
        "XXPL   TXSP",
        " SCXD STTS ",
        "  DCLTSCT  ",
        "   CPPSC   ",
        "    PDD    ",
        "     X     ",
    ),
    (
        "     X     ",
        "    DXX    ",
        "   DSTPT   ",
        "  PDXTPDD  ",
        " PCSS SLCD ",
        "XLPS   LXDL",
        " TXXC CLPP ",
        "  CLDTCSP  ",
        "   LTTCT   ",
        "    LSC    ",
        "     S     ",
    ),
    (
        "     T     ",
        "    CSX    ",
        "   XLTTX   ",
        "  CPTTCXL  ",
        " DCPP XXTC ",
        "PSCL   PSLL",
        " SDDS SXSS ",
        "  TPLDPCC  ",
        "   PLXDD   ",
        "    LDT    ",
        "     D     ",
    ),
    (
        "     D     ",
        "    PSX    ",
        "   CTDLD   ",
        "  PCCXXTT  ",
        " XCDS DTST ",
        "XXDD   LLLC",
        " PDPP SXCL ",
        "  LTPLSSS  ",
        "   TXPPL   ",
        "    TCS    ",
        "     C     ",
    ),
    (
        "     X     ",
        "    PDT    ",
        "   DSSXP   ",
        "  TDSCXPT  ",
        " PPDL TTTC ",
        "CPLC   CCDX",
        " SLCP SSPD ",
        "  XCXSTLL  ",
        "   LXXLD   ",
        "    DTL    ",
        "     S     ",
    ),
    (
        "     D     ",
        "    CDX    ",
        "   PCSCP   ",
        "  TXTSLTT  ",
        " DDST LPCC ",
        "XTPS   DDTS",
        " TLXP XXLL ",
        "  LSPXXCC  ",
        "   PPDLD   ",
        "    LSC    ",
        "     S     ",
    ),
)

LAB_BOARDS: tuple[Board, ...] = tuple(Board.from_rows(rows, "lab", i) for i, rows in enumerate(LAB_ROWS))


def _check_lab() -> None:
    forms = {canonical_form(ORIGINAL)}
    for board in LAB_BOARDS:
        assert not board_problems(board, 3, exact=True), board_problems(board)
        form = canonical_form(board)
        assert form not in forms, "lab board repeats a known board"
        forms.add(form)


_check_lab()


def lab_board(board_seed: int) -> Board:
    """Return the lab board of ``board_seed``: cached for 0..7, searched (seconds) otherwise."""
    if 0 <= board_seed < len(LAB_BOARDS):
        return LAB_BOARDS[board_seed]
    return lab_search(board_seed)


def symbols_of(spaces: Iterable[Space], board: Board) -> str:
    """Return the symbols of some spaces, in order."""
    return "".join(board.symbols[i] for i in spaces)
