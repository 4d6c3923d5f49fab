"""Solve, analyse and explain Twaalven en veertienen: the shared engine over the Twaalven kernel,
its CP-SAT model and its short reasons. A deal is searched with each starter."""

from __future__ import annotations

from puzzles import twaalven as rules
from puzzles.twaalven import Move, Position

from . import twaalven_explain, twaalven_sat
from .engine import GameEngine
from .result import Budget

NAME = rules.NAME


def to_kernel(position: Position):
    return [list(c) for c in position.columns], 0 if position.to_move == "T" else 1, []


def from_kernel(position: Position, pair: tuple[int, int]) -> Move:
    """The kernel names a turn by its two columns; listed here in column order."""
    ca, cb = sorted(pair)
    return Move(position.to_move, (position.columns[ca][-1], position.columns[cb][-1]), (ca, cb))


def starts(position: Position) -> list[Position]:
    """The given position, or a deal with each possible starter."""
    if position.to_move is not None:
        return [position]
    return [position.start(player) for player in rules.PLAYERS]


ENGINE = GameEngine(
    name=NAME, to_kernel=to_kernel, from_kernel=from_kernel, starts=starts,
    sat_solve=twaalven_sat.solve, reasons=twaalven_explain.reasons,
)
solve = ENGINE.solve
analyse = ENGINE.analyse
decide = ENGINE.decide


def explain(position: Position, budget: Budget | None = None):
    """Why the deal or position cannot be won (or that it can), in checkable words."""
    return twaalven_explain.explain(position, budget or Budget())
