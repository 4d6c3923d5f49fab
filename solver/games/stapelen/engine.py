"""Solve, analyse and explain Stapelen: the shared engine over the Stapelen kernel, its CP-SAT
model and its short reasons. The players are symmetric, so a deal is searched with A to move
and, when won, either may start."""

from __future__ import annotations

from puzzles import stapelen as rules
from puzzles.cards import rank
from puzzles.stapelen import Move, Position

from . import stapelen_explain, stapelen_sat
from .engine import GameEngine
from .result import Budget, Explanation

NAME = rules.NAME


def to_kernel(position: Position):
    """Columns, the mover (0 = A), and the six foundation tops as ranks (0 = empty)."""
    tops = [rank(pile[-1]) if pile else 0 for piles in position.foundations for pile in piles]
    return [list(c) for c in position.columns], rules.PLAYERS.index(position.to_move), tops


def from_kernel(position: Position, pair: tuple[int, int]) -> Move:
    """The kernel names a move by its column and the mover's foundation."""
    column, foundation = pair
    pile = position.foundations_of(position.to_move)[foundation]
    return Move(position.to_move, position.columns[column][-1], column, foundation, pile[-1] if pile else None)


ENGINE = GameEngine(
    name=NAME, to_kernel=to_kernel, from_kernel=from_kernel, symmetric_players=rules.PLAYERS,
    sat_solve=stapelen_sat.solve, reasons=stapelen_explain.reasons,
)
solve = ENGINE.solve
analyse = ENGINE.analyse
decide = ENGINE.decide


def explain(position: Position, budget: Budget | None = None) -> Explanation:
    """Why the deal or position cannot be won (or that it can): short reasons, else a CP-SAT
    unsat core."""
    return stapelen_explain.explain(position, budget or Budget())
