"""What makes a Twaalven en veertienen position plausible beyond its layout (docs/positions.md):
the cards gone are the pairs of the turns played, and no column lost more cards than there were
turns. Random play reaching only plausible positions is tested in test_parse's round trips."""

from __future__ import annotations

import pytest

from puzzles import twaalven as tw
from puzzles.cards import parse_card
from puzzles.errors import IllegalPositionError

DEAL_1 = tw.format_position(tw.deal(1)).splitlines()


def after(taken: dict[int, int], to_move: str) -> str:
    """Seed 1's deal with `taken[c]` cards gone from the top of column c (1-based)."""
    rows = [" ".join(line.split()[:4 - taken.get(c, 0)]) or "-" for c, line in enumerate(DEAL_1, start=1)]
    return "\n".join(rows) + f"\nto-move: {to_move}\n"


def test_the_cards_gone_are_the_pairs_of_the_turns_played():
    # Column 1's top QH and column 7's top 2D make 14: F's pair, so F played the one turn.
    assert tw.parse(after({1: 1, 7: 1}, "T")).remaining == 50
    with pytest.raises(IllegalPositionError, match=r"cards gone \(QH 2D\) cannot be the pairs .* 1 T pair"):
        tw.parse(after({1: 1, 7: 1}, "F"))
    # QH and 8S make neither 12 nor 14.
    with pytest.raises(IllegalPositionError, match=r"\(8S QH\) cannot be the pairs"):
        tw.parse(after({1: 1, 8: 1}, "T"))


def test_no_column_lost_more_cards_than_turns_were_played():
    # A-J (T's) and K-A (F's) are gone: two turns, which take from two columns each.
    gone = [parse_card(name) for name in "AS JS KS AH".split()]
    left = [c for c in range(52) if c not in gone]
    spread = tuple(tuple(left[4 * c:4 * c + 4]) for c in range(12))
    with pytest.raises(IllegalPositionError, match="column 13 lost 4 cards in 2 turns"):
        tw.check_position(tw.Position(spread + ((),), "T"))
    # The same four gone two from column 1 and two from column 2: fine.
    halves = tuple(column[:2] if c < 2 else column for c, column in enumerate(spread))
    moved = tuple(sorted(left[2:4] + left[6:8]))  # the cards halving columns 1 and 2 took off
    tw.check_position(tw.Position(halves + (moved,), "T"))
    # A-J alone gone, both from column 13: one turn.
    one_pair = [c for c in range(52) if c not in gone[:2]]
    with pytest.raises(IllegalPositionError, match="column 13 lost 2 cards in 1 turn;"):
        tw.check_position(tw.Position(tuple(tuple(one_pair[4 * c:4 * c + 4]) for c in range(13)), "F"))
