"""All in a Row and Black Hole on the shared engine: the one-foundation kernels and the short
reasons of `reasons`. With no CP-SAT model, a lost position with no short reason is explained
by a small proof tree of short reasons, else by the exhaustive search's word."""

from __future__ import annotations

import functools

from puzzles.cards import rank
from puzzles.one_foundation import ALL_IN_A_ROW, BLACK_HOLE, Move, OneFoundationGame, Position

from ...contract import GameEntry
from ...engine import DecisionEngine
from . import picture, reasons


class OneFoundationEngine(DecisionEngine):
    def __init__(self, game: OneFoundationGame):
        super().__init__()
        self.name = game.NAME

    def to_kernel(self, position: Position):
        """Columns and the foundation's top rank (0 = empty)."""
        top = rank(position.foundation[-1]) if position.foundation else 0
        return [list(c) for c in position.columns], 0, [top]

    def from_kernel(self, position: Position, pair: tuple[int, int]) -> Move:
        column, _ = pair
        return Move(position.columns[column][-1], column)

    def reasons(self, position: Position) -> list[str]:
        return reasons.reasons(position)


def entry(game: OneFoundationGame, layout: str) -> GameEntry:
    return GameEntry(
        rules=game,
        engine=OneFoundationEngine(game),
        picture=functools.partial(picture.picture, title=game.TITLE),
        formats=f"""\
{game.NAME}: {layout}, one line per column, cards separated by spaces, bottom
card first, '-' for an empty column. A position mid-game adds
'foundation: AS 2H 3D' (the cards played, in order).""",
        json_fields=f"""\
{game.NAME}: a move is {{"card": "7H", "column": 3}} (columns numbered from 1).""",
    )


ALL_IN_A_ROW_GAME = entry(ALL_IN_A_ROW, "13 columns of 4")
BLACK_HOLE_GAME = entry(BLACK_HOLE, "17 columns of 3 (the AS starts the foundation)")
