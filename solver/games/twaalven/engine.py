"""Twaalven en veertienen on the shared engine: the column games' kernel, the CP-SAT model
(`sat`) for what its budget leaves open, and the short reasons (`reasons`). The players choose
who starts, so a deal is searched with each starter."""

from __future__ import annotations

from puzzles import twaalven as rules
from puzzles.twaalven import Move, Position

from ...contract import GameEntry
from ...engine import DecisionEngine
from . import picture, reasons


class TwaalvenEngine(DecisionEngine):
    name = rules.NAME
    starters = rules.PLAYERS
    sat_module = f"{__package__}.sat"

    def to_kernel(self, position: Position):
        return [list(c) for c in position.columns], rules.PLAYERS.index(position.to_move), []

    def from_kernel(self, position: Position, pair: tuple[int, int]) -> Move:
        """The kernel names a turn by its two columns; listed here in column order."""
        ca, cb = sorted(pair)
        return Move(position.to_move, (position.columns[ca][-1], position.columns[cb][-1]), (ca, cb))

    def reasons(self, position: Position) -> list[str]:
        return reasons.reasons(position)


GAME = GameEntry(
    rules=rules,
    engine=TwaalvenEngine(),
    picture=picture.picture,
    formats="""\
twaalven: 13 lines, one per column, cards separated by spaces, bottom (covered)
card first, free card last, '-' for an empty column; '#' starts a comment.
A position mid-game adds 'to-move: T' or 'to-move: F'.""",
    json_fields="""\
twaalven: a turn is {"player": "T"|"F", "cards": ["9H", "5C"], "columns": [4, 11]}
(columns numbered from 1).""",
)
