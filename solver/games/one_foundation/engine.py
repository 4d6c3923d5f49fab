"""Solve, analyse and explain All in a Row and Black Hole: the shared engine over the
one-foundation kernels, with the short reasons of `one_foundation_explain`."""

from __future__ import annotations

from puzzles.cards import rank
from puzzles.one_foundation import ALL_IN_A_ROW, BLACK_HOLE, Move, Position

from . import one_foundation_explain
from .engine import GameEngine


def to_kernel(position: Position):
    """Columns and the foundation's top rank (0 = empty)."""
    top = rank(position.foundation[-1]) if position.foundation else 0
    return [list(c) for c in position.columns], 0, [top]


def from_kernel(position: Position, pair: tuple[int, int]) -> Move:
    column, _ = pair
    return Move(position.columns[column][-1], column)


ENGINES = {
    game.NAME: GameEngine(
        name=game.NAME, to_kernel=to_kernel, from_kernel=from_kernel, reasons=one_foundation_explain.reasons
    )
    for game in (ALL_IN_A_ROW, BLACK_HOLE)
}
