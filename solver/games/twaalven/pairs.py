"""How many pairs of each type a Twaalven en veertienen position still needs: the counting
invariant that the reasons and the CP-SAT model share (and the kernel mirrors in Rust).

Every rank lies on a chain of pair types (7 -5-7- 5 -5-9- 9 ... Q -2-Q- 2 ... 8 -6-8- 6), so
once the number of Q-K pairs is fixed, using up every rank exactly fixes every other count.
"""

from __future__ import annotations

from fractions import Fraction

from puzzles.twaalven import PAIRS, PLAYERS, Position, other

from ...words import rank_counts

Type = tuple[int, int]


def turns_left(position: Position, to_move: str) -> dict[str, int]:
    """Turns each player still plays: the player to move plays the first, third, … of them."""
    turns = position.remaining // 2
    return {to_move: (turns + 1) // 2, other(to_move): turns // 2}


def counts_for(r: list[int], qk: int | Fraction) -> dict[Type, int | Fraction]:
    """The pair counts that use up every rank exactly, given the number of Q-K pairs: each rank
    lies on a chain of pair types (7 —5-7— 5 —5-9— 9 … Q —2-Q— 2 … 8 —6-8— 6), so fixing one
    count fixes the rest. Exact with ints or Fractions."""
    ak = r[13] - qk
    aj = r[1] - ak
    three_j = r[11] - aj
    three_nine = r[3] - three_j
    five_nine = r[9] - three_nine
    five_seven = r[5] - five_nine
    two_q = r[12] - qk
    two_ten = r[2] - two_q
    four_ten = r[10] - two_ten
    four_eight = r[4] - four_ten
    six_eight = r[8] - four_eight
    return {
        (12, 13): qk, (1, 11): aj, (2, 10): two_ten, (3, 9): three_nine, (4, 8): four_eight,
        (5, 7): five_seven, (6, 6): Fraction(r[6] - six_eight, 2),
        (1, 13): ak, (2, 12): two_q, (3, 11): three_j, (4, 10): four_ten, (5, 9): five_nine,
        (6, 8): six_eight, (7, 7): Fraction(r[7] - five_seven, 2),
    }


def required_pairs(position: Position, to_move: str) -> dict[Type, int] | None:
    """How many pairs of each type must still be taken to clear the position with `to_move` to
    move, or None when no non-negative whole counts fit (the position is lost). The Python
    mirror of the kernel's `required_pairs`: tries every Q-K count."""
    r = rank_counts(position)
    turns = turns_left(position, to_move)
    for qk in range(min(r[12], r[13]) + 1):
        need = counts_for(r, qk)
        if any(n < 0 or n != int(n) for n in need.values()):
            continue
        if all(sum(need[t] for t in PAIRS[p]) == turns[p] for p in PLAYERS):
            return {t: int(n) for t, n in need.items()}
    return None
