"""What makes a Sir Tommy position plausible beyond its cards (docs/positions.md): D holds no
foundation card before D's first turn, and errors speak of rows and name --rows."""

from __future__ import annotations

import pytest

from puzzles import sir_tommy as st
from puzzles.errors import IllegalPositionError, ParseError

STOCK = "2S 3S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"


def first_turn(d_foundation: str, last_card: str) -> str:
    """U's first turn: AS played, 4S still in hand, the draw's third card elsewhere."""
    return (f"stock: {STOCK}\nhand: 4S\n{last_card}\n-\n-\n-\nU: AS, -, -, -\nD: {d_foundation}\nto-move: U\n")


def test_d_has_no_foundation_card_before_its_first_turn():
    st.parse(first_turn("-, -, -, -", "KC"))  # KC went to a row
    with pytest.raises(IllegalPositionError, match="foundation card KC of D, but only U has drawn"):
        st.parse(first_turn("KC, -, -, -", "-"))


def test_errors_speak_of_rows_and_name_the_option():
    with pytest.raises(ParseError, match=r"a 5th row; Sir Tommy voor twee has 4 rows here \(--rows sets how many\)"):
        st.parse(first_turn("-, -, -, -", "KC\n-"))
    assert len(st.parse(first_turn("-, -, -, -", "KC\n-"), rows=5).rows) == 5
