"""How fast could a public Dominoes API be in CPython? Two stripped states beside ours and the peer's.

    python3 tests/bench/bench_api_floor.py [--games 3000] [--repeats 7] [--seed 1]

Issue 10 asks for random 4-player block games through ``legal_moves()``/``play()`` with an ``undo()``
and a replay of every move at three times the `dominoes` package's ``Game``. This benchmark measures
the ceiling of that loop, with the same deals (``rules.deal``) and the same lookup tables as the
engine, in two states that keep only what the loop needs:

- **floor, int codes**: the hands as bit masks, the two ends, the turn, passes in a row, and an undo
  stack of tuples. Moves are the engine's int codes. No line of play, no history for the views, no
  scores, no Move objects, no checks beyond a legal code.
- **floor, Move objects**: the same state, but ``legal_moves()`` hands out the shared ``Move``
  objects the public API promises, and ``play()`` takes one back (its code read from it, then
  checked against the legal codes), as ``DominoesState`` does.

Neither is a game a player could use (no views, saves or results): they show how much of the goal
the interpreter leaves for the rest of the contract. Runs alternate with ours and the peer's, and
each figure is the median CPU time over the repeats; ratios are the peer's time over each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_api import ours_with_undo, peer, peer_games

from boneyard.games.dominoes.rules import (
    BIT,
    BITS,
    CODE_MASK,
    DRAW,
    ENDS_MASK,
    FIT,
    HIGH,
    LEFT_LAYS,
    LOW,
    MOVE_OF,
    NUMBER_MASK,
    OPEN,
    OTHER,
    PASS,
    PASS_CODES,
    RIGHT_LAYS,
    deal,
)

PLAYERS = 4
MOVES_OF_CODES: dict[Sequence[int], list[Any]] = {}  # legal codes -> their shared Move objects


class FloorState:
    """A 4-player block hand with only what legal_moves/play/undo need; moves are int codes."""

    __slots__ = ("codes", "hands", "left", "opening", "over", "passes", "right", "stack", "turn")

    def __init__(self, rng: random.Random) -> None:
        table = deal(rng, PLAYERS, 7, False, None)
        self.hands = table.hands
        self.left = -1
        self.right = -1
        self.turn = table.turn
        self.passes = 0
        self.stack: list[tuple[Any, ...]] = []
        self.over = False
        self.codes: Sequence[int] | None = None
        self.opening = table.opening_tile

    def is_over(self) -> bool:
        """Tell whether the hand has ended."""
        return self.over

    def legal_codes(self) -> Sequence[int]:
        """Return the legal codes (kept until the next move), from the engine's lookup tables."""
        codes = self.codes
        if codes is not None:
            return codes
        hand = self.hands[self.turn]
        left = self.left
        right = self.right
        if left < 0:
            codes = (OPEN | self.opening << 1,)
        else:
            base = left * 7 + right
            fit = hand & ENDS_MASK[base]
            if not fit:
                codes = PASS_CODES
            elif not fit & (fit - 1):
                codes = FIT[BIT[fit] * 49 + base]
            elif left == right:
                codes = LEFT_LAYS[left][hand & NUMBER_MASK[left]]
            else:
                codes = (
                    LEFT_LAYS[left][hand & NUMBER_MASK[left]] + RIGHT_LAYS[right][hand & NUMBER_MASK[right]]
                )
        self.codes = codes
        return codes

    legal_moves = legal_codes

    def play(self, code: int) -> None:
        """Play a legal code (refused otherwise) and push its undo record."""
        codes = self.codes if self.codes is not None else self.legal_codes()
        if code not in codes:
            raise ValueError(f"illegal code {code}")
        self._apply(code, codes)

    def _apply(self, code: int, codes: Sequence[int]) -> None:
        """Apply a checked code."""
        turn = self.turn
        right = self.right
        left = self.left
        self.stack.append((code, turn, left, right, self.passes, codes))
        self.codes = None
        if code < DRAW:
            t = code >> 1
            hand = self.hands[turn] ^ BITS[t]
            self.hands[turn] = hand
            if code & 1:
                self.right = OTHER[t * 7 + right]
            else:
                self.left = OTHER[t * 7 + left]
            self.passes = 0
            if hand:
                self.turn = (turn + 1) & 3
            else:
                self.over = True
        elif code == PASS:
            passes = self.passes + 1
            self.passes = passes
            if passes >= PLAYERS:
                self.over = True
            else:
                self.turn = (turn + 1) & 3
        else:
            t = (code & CODE_MASK) >> 1
            self.hands[turn] ^= 1 << t
            self.left = HIGH[t]
            self.right = LOW[t]
            self.passes = 0
            self.turn = (turn + 1) & 3

    def undo(self) -> None:
        """Take back the last code exactly."""
        code, turn, left, right, passes, codes = self.stack.pop()
        self.turn = turn
        self.left = left
        self.right = right
        self.passes = passes
        self.codes = codes
        self.over = False
        if code != PASS:
            self.hands[turn] |= BITS[(code & CODE_MASK) >> 1]


class FloorMoves(FloorState):
    """The same state behind the public API's shared Move objects."""

    __slots__ = ()

    def legal_moves(self) -> list[Any]:  # type: ignore[override]
        """Return the shared Move objects of the legal codes (a fresh list, as the public API does)."""
        codes = self.codes if self.codes is not None else self.legal_codes()
        moves = MOVES_OF_CODES.get(codes)
        if moves is None:
            moves = MOVES_OF_CODES[codes] = [MOVE_OF[code] for code in codes]
        return moves[:]

    def play(self, move: Any) -> None:  # type: ignore[override]
        """Play a shared Move (its code read from it, then checked)."""
        try:
            code = move._code
        except AttributeError:
            code = -1
        codes = self.codes if self.codes is not None else self.legal_codes()
        if code not in codes:
            raise ValueError(f"illegal move {move}")
        self._apply(code, codes)


def floor_loop(kind: type[FloorState]) -> Callable[[int, int], int]:
    """Return the issue's loop (legal moves, play, undo, replay) over one of the floor states."""

    def run(games: int, seed: int) -> int:
        rng = random.Random(seed)
        pick = rng.random
        moves = 0
        for _ in range(games):
            state = kind(rng)
            while not state.is_over():
                legal = state.legal_moves()
                move = legal[int(pick() * len(legal))]
                state.play(move)
                state.undo()
                state.play(move)
                moves += 1
        return moves

    return run


def main(argv: list[str] | None = None) -> None:
    """Run the contestants alternately and print the median CPU times and the peer's ratio to each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    runs: dict[str, Callable[[int, int], int]] = {
        "floor, int codes": floor_loop(FloorState),
        "floor, Move objects": floor_loop(FloorMoves),
        "ours: DominoesState": ours_with_undo,
    }
    if peer is not None:
        runs["peer: dominoes Game"] = peer_games
    else:
        print("peer skipped: the `dominoes` package is not importable (pip install -r requirements-test.txt)")
    times: dict[str, list[float]] = {name: [] for name in runs}
    for repeat in range(args.repeats):
        for name, run in runs.items():
            start = time.process_time()
            run(args.games, args.seed + repeat)
            times[name].append(time.process_time() - start)
    print(f"{args.games} random 4-player block games, each move played, taken back and played again:")
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        ratio = f"   peer / this: {medians['peer: dominoes Game'] / median:.2f}x" if peer is not None else ""
        print(f"  {name:<22} {args.games / median:>9,.0f} games per CPU second{ratio}")


if __name__ == "__main__":
    main()
