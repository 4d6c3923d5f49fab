"""What makes a The Game position plausible (docs/positions.md), one test per rule, and that
every position real play reaches passes them all."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import the_game as g
from puzzles.errors import IllegalPositionError, ParseError
from tests.conftest import random_walk

SEED_7 = g.format_position(g.deal(7))


def small_position(gone: set[int], piles: str) -> str:
    """Cards 2..30, one player holding the eight lowest cards not `gone`, the rest to draw."""
    left = [c for c in range(2, 31) if c not in gone]
    return (f"cards: 2-30\nhand 1: {' '.join(map(str, left[:8]))}\ndraw: {' '.join(map(str, left[8:]))}\n"
            f"piles: {piles}\nto-move: 1\nplayed: 0\n")


def test_a_deal_has_no_piles_or_played_line():
    with pytest.raises(ParseError, match="line 3: a 'piles:' line belongs to a position mid-game"):
        g.parse(SEED_7 + "piles: 99 98 2 3\n")
    with pytest.raises(ParseError, match="a 'played:' line belongs to a position mid-game"):
        g.parse(SEED_7 + "played: 0\n")


def test_a_position_names_its_draw_pile_and_its_piles():
    text = small_position({5}, "5 1 31 31")
    g.parse(text)
    without_draw = "".join(line for line in text.splitlines(True) if not line.startswith("draw"))
    with pytest.raises(ParseError, match="needs a 'draw: 12 88"):
        g.parse(without_draw)
    with pytest.raises(ParseError, match="needs a 'piles: 1 1 100 100"):
        g.parse(text.replace("piles: 5 1 31 31\n", ""))


def test_a_pile_shows_a_card_that_is_gone():
    text = small_position({5}, "5 1 31 31")
    with pytest.raises(IllegalPositionError, match="pile up1 shows 9, which is still in a hand"):
        g.parse(text.replace("piles: 5 1", "piles: 9 1"))


def test_every_card_gone_can_lie_under_some_pile():
    # 1 -> 12 -> 2 (a backwards trick): 12 lies under the 2.
    g.parse(small_position({2, 12}, "2 1 31 31"))
    # A pile comes down only by exactly 10, and 15 is not gone: 25 cannot lie under the 2.
    with pytest.raises(IllegalPositionError, match="card 25 is gone, but no pile can have it underneath"):
        g.parse(small_position({2, 25}, "2 1 31 31"))
    # With 12, 22 and 15 gone it can: 1 -> 25 -> 15 -> 22 -> 12 -> 2.
    g.parse(small_position({2, 12, 22, 15, 25}, "2 1 31 31"))
    # Descending piles mirror it: 31 -> 18 -> 28 leaves 18 under the 28 ...
    g.parse(small_position({18, 28}, "1 1 28 31"))
    # ... and nothing gone lies under an untouched pile.
    with pytest.raises(IllegalPositionError, match="card 18 is gone"):
        g.parse(small_position({18, 29}, "1 1 29 31"))


def test_hands_beyond_the_kernel_are_refused():
    text = "hand-size: 12\n" + SEED_7.replace("\n#", "\n")
    with pytest.raises(IllegalPositionError, match="hand size 12: winnable handles hands of up to 11"):
        g.parse(text)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 3), steps=st.integers(1, 60))
def test_every_position_of_real_play_is_plausible(seed, players, steps):
    """Small decks, where backwards tricks are frequent: whatever random play reaches parses."""
    rng = random.Random(seed)
    start = g.deal(seed, players=players, top=30).start(rng.randint(1, players))
    position = random_walk(start, steps, rng)
    assert g.parse(g.format_position(position)) == position
