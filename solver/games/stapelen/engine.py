"""Stapelen on the shared engine: the column games' kernel, the CP-SAT model (`sat`) for what
its budget leaves open, and the short reasons (`reasons`). The players are symmetric, so a deal
is searched with A to move and, when won, either may start."""

from __future__ import annotations

from puzzles import stapelen as rules
from puzzles.cards import rank
from puzzles.stapelen import Move, Position

from ...contract import GameEntry
from ...engine import DecisionEngine
from ...result import SolveResult
from . import picture, reasons


class StapelenEngine(DecisionEngine):
    name = rules.NAME
    sat_module = f"{__package__}.sat"
    core_verbs = ("places", "placed")

    def to_kernel(self, position: Position):
        """Columns, the mover (0 = A), and the six foundation tops as ranks (0 = empty)."""
        tops = [rank(pile[-1]) if pile else 0 for piles in position.foundations for pile in piles]
        return [list(c) for c in position.columns], rules.PLAYERS.index(position.to_move), tops

    def from_kernel(self, position: Position, pair: tuple[int, int]) -> Move:
        """The kernel names a move by its column and the mover's foundation."""
        column, foundation = pair
        pile = position.foundations_of(position.to_move)[foundation]
        return Move(position.to_move, position.columns[column][-1], column, foundation, pile[-1] if pile else None)

    def symmetric_starters(self, position: Position) -> tuple[str, ...]:
        """A and B for a fresh deal; a position mid-game has its player to move, and only that one."""
        return rules.PLAYERS if rules.is_fresh(position) else ()

    def reasons(self, position: Position) -> list[str]:
        return reasons.reasons(position)

    def winnable_reasons(self, position: Position, result: SolveResult) -> tuple[list[str], str]:
        """A fresh deal is won whoever starts, since the players are symmetric."""
        who = "whoever starts" if rules.is_fresh(position) else f"with {position.to_move} to move"
        return [f"Winnable {who}; `winnable solve` prints a winning line."], "none"


GAME = GameEntry(
    rules=rules,
    engine=StapelenEngine(),
    picture=picture.picture,
    formats="""\
stapelen: the 13 column lines of twaalven; a position mid-game adds
  A: 3S 4H, -, QC    (A's three foundations, comma-separated, bottom card first)
  B: 5D, -, 7C
  to-move: B         (turns alternate: A has placed 3 cards, B 2)""",
    json_fields="""\
stapelen: a move is {"player": "A"|"B", "card": "4D", "column": 2, "foundation": 2}.""",
)
