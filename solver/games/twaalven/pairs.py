"""How many pairs of each type a Twaalven en veertienen position still needs: the counting
invariant that the reasons and the CP-SAT model share (and the kernel mirrors in Rust).

Every rank lies on a chain of pair types (7 -5-7- 5 -5-9- 9 ... Q -2-Q- 2 ... 8 -6-8- 6), so
once the number of Q-K pairs is fixed, using up every rank exactly fixes every other count.
"""

from __future__ import annotations

from puzzles.twaalven import Position, other, pair_split

from ...words import rank_counts

Type = tuple[int, int]


def turns_left(position: Position, to_move: str) -> dict[str, int]:
    """Turns each player still plays: the player to move plays the first, third, … of them."""
    turns = position.remaining // 2
    return {to_move: (turns + 1) // 2, other(to_move): turns // 2}


def required_pairs(position: Position, to_move: str) -> dict[Type, int] | None:
    """How many pairs of each type must still be taken to clear the position with `to_move` to
    move, or None when no non-negative whole counts fit (the position is lost). The Python
    mirror of the kernel's `required_pairs`."""
    return pair_split(rank_counts(position), turns_left(position, to_move))
