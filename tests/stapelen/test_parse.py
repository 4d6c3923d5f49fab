"""Every path of the Stapelen deal/position text format: `parse`, `check_position` and
`format_position`."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import stapelen as sp
from puzzles.cards import card_name, parse_card
from puzzles.errors import IllegalPositionError, ParseError, WinnableError

from tests.twaalven.test_parse import DEAL_1  # seed 1: Stapelen deals as Twaalven does
from tests.conftest import random_walk

# Deal 1 after nine random legal moves (random.Random(3)): A has placed five cards, B four.
PLAYED_1 = """\
7H 2H TH QH
9S JD 8C 9H
4H 5D QS
8D 7D 4C 3C
8H 4D 6S AS
5C 2S
JH AH AC 2D
6H 6C 5S
9C KS
JS KD KC 3D
5H TD 6D
KH TC QC
3S JC QD
A: 4S, 7S 8S 9D, TS
B: 3H, 7C, AD 2C
to-move: B
"""


def rows(source: str = PLAYED_1) -> list[str]:
    return source.splitlines()


def text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def played(seed: int, turns: int, rng: random.Random) -> sp.Position:
    return random_walk(sp.deal(seed), turns, rng)


def parse_error(source: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        sp.parse(source)
    assert isinstance(info.value, WinnableError)
    return info.value


def illegal(source: str) -> str:
    with pytest.raises(IllegalPositionError) as info:
        sp.parse(source)
    assert isinstance(info.value, WinnableError)
    return str(info.value)


# --- accepted input ---------------------------------------------------------------------------


def test_the_literal_deal_is_seed_1_and_formats_back():
    assert sp.parse(DEAL_1) == sp.deal(1)
    assert sp.format_position(sp.deal(1)) == DEAL_1


def test_the_literal_position_is_deal_1_after_nine_moves():
    pos = sp.parse(PLAYED_1)
    assert pos == played(1, 9, random.Random(3))
    assert sp.format_position(pos) == PLAYED_1
    assert pos.to_move == "B" and pos.remaining == 43
    assert [[card_name(c) for c in pile] for pile in pos.foundations_of("B")] == [["3H"], ["7C"], ["AD", "2C"]]


def test_comments_blank_lines_ten_suit_symbols_and_lowercase():
    lines = rows()
    lines[0] = "7♥ 2h 10H qH   # column 1"
    lines[13] = "a:  4s ,7S 8S 9♦,  10S"
    lines[15] = "To-Move :  b"
    assert sp.parse("# played\n\n" + text(lines) + "\n# end\n") == sp.parse(PLAYED_1)


def test_fields_may_come_first():
    lines = rows()
    assert sp.parse(text(lines[13:] + lines[:13])) == sp.parse(PLAYED_1)


def test_a_deal_may_name_empty_foundations_and_either_mover():
    empty = "A: -, -, -\nB: -,-,-\n"
    assert sp.parse(DEAL_1 + empty) == sp.deal(1)
    assert sp.parse(empty + DEAL_1 + "to-move: a\n") == sp.deal(1)
    b_first = sp.parse(DEAL_1 + "to-move: B\n")
    assert b_first.to_move == "B" and b_first.remaining == 52
    assert sp.format_position(b_first) == DEAL_1 + "A: -, -, -\nB: -, -, -\nto-move: B\n"
    assert sp.parse(sp.format_position(b_first)) == b_first


def test_foundations_may_wrap_from_king_to_ace():
    # Every card on foundations, built as four full cycles that pass from K to A.
    wrap = "A: QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS, QH KH AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH, -\n"
    wrap += "B: QD KD AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD, QC KC AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC, -\n"
    pos = sp.parse("-\n" * 13 + wrap + "to-move: A\n")
    assert pos.is_won()
    assert sp.parse(sp.format_position(pos)) == pos


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), turns=st.integers(0, 52), choice=st.integers(0, 2**32))
def test_format_and_parse_round_trip(seed, turns, choice):
    pos = played(seed, turns, random.Random(choice))
    source = sp.format_position(pos)
    assert sp.parse(source) == pos
    assert sp.format_position(sp.parse(source)) == source


# --- errors: cards ----------------------------------------------------------------------------


def test_not_a_card_in_a_column_gives_its_line():
    lines = rows()
    lines[6] = "JH 1X AC 2D"
    error = parse_error(text(lines))
    assert error.line == 7 and "'1X' is not a card" in str(error)


def test_not_a_card_on_a_foundation_gives_its_line():
    lines = rows()
    lines[14] = "B: 3H, 7C, AD 2Z"
    error = parse_error(text(lines))
    assert error.line == 15 and "'2Z' is not a card" in str(error)


def test_duplicate_within_the_columns():
    lines = rows(DEAL_1)
    lines[4] = "8H 4D 6S 9S"  # 9S is already on line 2
    error = parse_error(text(lines))
    assert error.line == 5 and "duplicate card 9S (also on line 2)" in str(error)


def test_duplicate_between_a_column_and_a_foundation():
    lines = rows()
    lines[13] = "A: 4S, 7S 8S 9D, TH"  # TH lies in column 1 (line 1)
    error = parse_error(text(lines))
    assert error.line == 14 and "duplicate card TH (also on line 1)" in str(error)
    # With the foundation lines first, the foundation line is still the one reported (its cards
    # are checked after the columns), and the column's line is named too.
    lines = rows()
    lines[0] = "7H 2H TH 4S"  # 4S is on A's line
    error = parse_error(text(lines[13:] + lines[:13]))
    assert error.line == 1 and "duplicate card 4S (also on line 4)" in str(error)


def test_duplicate_between_the_players_foundations():
    lines = rows()
    lines[14] = "B: 3H, 7C, 8S"  # 8S is on A's line; AD and 2C go missing
    error = parse_error(text(lines))
    assert error.line == 15 and "duplicate card 8S (also on line 14)" in str(error)


def test_duplicate_within_one_foundation_line():
    lines = rows()
    lines[14] = "B: 3H, 3H, AD 2C"
    error = parse_error(text(lines))
    assert error.line == 15 and "duplicate card 3H (also on line 15)" in str(error)


def test_missing_cards_in_a_position_are_named():
    lines = rows()
    lines[14] = "B: 3H, 7C, -"  # AD and 2C are nowhere
    message = illegal(text(lines))
    assert "50 cards" in message and "missing: AD 2C" in message


@pytest.mark.parametrize("player", ["A", "B"])
def test_a_left_out_foundation_line_is_named_where_the_cards_do_not_add_up(player):
    """Either player's line (each has placed cards); the hint said "a 'A:' line" for A."""
    lines = [line for line in rows() if not line.startswith(f"{player}:")]
    message = illegal(text(lines))
    assert "missing: " in message and message.endswith(f"without the '{player}:' line {player}'s foundations are empty")
    assert "without the" not in illegal(text(rows()[:14] + ["B: 3H, 7C, -"] + rows()[15:]))


def test_missing_card_in_a_deal_asks_for_to_move():
    lines = rows(DEAL_1)
    lines[12] = "3S JC QD"
    message = str(parse_error(text(lines)))
    assert "missing: 7C" in message and "to-move" in message


def test_a_deal_column_short_of_four_cards_without_to_move():
    lines = rows(DEAL_1)
    lines[12] = "3S JC QD"
    lines[0] = "7H 2H TH QH 7C"
    error = parse_error(text(lines))
    assert error.line == 1 and "5 cards in one column" in str(error)



def test_a_position_without_to_move_asks_for_it():
    # Every card is there (some on foundations), so only the columns' depths showed it was no
    # deal: the error named a short column and never the missing 'to-move:' line.
    lines = [line for line in rows() if not line.startswith("to-move")]
    error = parse_error(text(lines))
    assert error.line == 3 and "a column of 3 cards" in str(error) and "'to-move: A|B'" in str(error)

# --- errors: foundations and turns -------------------------------------------------------------


def test_foundation_breaking_the_building_rule():
    lines = rows()
    lines[13] = "A: 4S, 7S 9D 8S, TS"
    message = illegal(text(lines))
    assert "foundation A2: 9D cannot lie on 7S" in message


def test_foundation_ace_on_king_is_fine_but_king_on_ace_is_not():
    lines = rows()
    lines[14] = "B: 3H, 7C, 2C AD"
    assert "foundation B3: AD cannot lie on 2C" in illegal(text(lines))


@pytest.mark.parametrize("value, count", [("4S, 7S 8S 9D TS", 2), ("4S, 7S 8S 9D, TS, -", 4), ("", 1)])
def test_each_player_lists_three_foundations(value, count):
    lines = rows()
    lines[13] = f"A: {value}"
    error = parse_error(text(lines))
    listed = "1 foundation" if count == 1 else f"{count} foundations"
    assert error.line == 14 and f"A lists {listed}; give 3" in str(error)


def test_placed_counts_must_fit_whose_turn_it_is():
    # A has placed five cards and B four, so B is to move.
    lines = rows()
    lines[15] = "to-move: A"
    message = illegal(text(lines))
    assert "A is to move with 5 cards placed and B with 4" in message
    # B's 2C back in column 11 leaves A two cards ahead
    lines = rows()
    lines[14] = "B: 3H, 7C, AD"
    lines[10] = "5H TD 6D 2C"
    message = illegal(text(lines))
    assert "B is to move with 3 cards placed and A with 5" in message


@pytest.mark.parametrize("value", ["C", "", "AB", "1", "A B"])
def test_to_move_invalid(value):
    lines = rows()
    lines[15] = f"to-move: {value}"
    error = parse_error(text(lines))
    assert error.line == 16 and "must be A or B" in str(error)


def test_a_field_given_twice():
    error = parse_error(PLAYED_1 + "B: -, -, -\n")
    assert error.line == 17 and "a second 'B' line (first on line" in str(error)


@pytest.mark.parametrize("field", ["C", "player", "to_move", "foundations"])
def test_unknown_field(field):
    error = parse_error(f"{field}: A\n" + DEAL_1)
    assert error.line == 1 and f"unknown field {field!r}" in str(error)


def test_wrong_number_of_columns():
    assert "14th column" in str(parse_error(DEAL_1 + "-\nto-move: A\n"))
    error = parse_error(text(rows(DEAL_1)[:12]))
    assert error.line is None and "12 columns" in str(error)


def test_check_position_rejects_what_parse_cannot_express():
    pos = sp.deal(1)
    with pytest.raises(IllegalPositionError, match="12 columns"):
        sp.check_position(sp.Position(pos.columns[:12]))
    with pytest.raises(IllegalPositionError, match="2 foundations"):
        sp.check_position(sp.Position(pos.columns, (((),) * 2, ((),) * 3)))
    with pytest.raises(IllegalPositionError, match="'C' is not A or B"):
        sp.check_position(sp.Position(pos.columns, to_move="C"))
    with pytest.raises(IllegalPositionError, match="column 1 holds 5 cards"):
        sp.check_position(sp.Position(((parse_card("AS"),) * 5,) + pos.columns[1:]))
