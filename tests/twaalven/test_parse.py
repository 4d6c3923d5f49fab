"""Every path of the Twaalven deal/position text format: `parse` and `format_position`."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import twaalven as tw
from puzzles.cards import card_name, parse_card
from puzzles.errors import IllegalPositionError, ParseError, WinnableError
from puzzles.twaalven import Position
from tests.twaalven.test_kernel import random_positions

# Seed 1, computed once (see test_cards.py): 13 lines, bottom card first.
DEAL_1 = """\
7H 2H TH QH
9S JD 8C 9H
4H 5D QS 3H
8D 7D 4C 3C
8H 4D 6S AS
5C 2S 7S 4S
JH AH AC 2D
6H 6C 5S 8S
9C KS AD TS
JS KD KC 3D
5H TD 6D 2C
KH TC QC 9D
3S JC QD 7C
"""


def lines() -> list[str]:
    return DEAL_1.splitlines()


def text(rows: list[str]) -> str:
    return "\n".join(rows) + "\n"


def parse_error(source: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        tw.parse(source)
    assert isinstance(info.value, ValueError) and isinstance(info.value, WinnableError)
    return info.value


def test_the_literal_deal_is_seed_1():
    assert tw.parse(DEAL_1) == tw.deal(1)
    assert tw.format_position(tw.deal(1)) == DEAL_1


# --- accepted input ---------------------------------------------------------------------------


def test_comments_and_blank_lines_are_ignored():
    rows = lines()
    rows[0] += "   # column 1, bottom first"
    source = "# seed 1\n\n" + "\n\n".join(rows) + "\n   \n# the end\n"
    assert tw.parse(source) == tw.deal(1)


def test_ten_and_suit_symbols_and_lowercase_are_accepted():
    rows = lines()
    rows[0] = "7♥ 2h 10H qH"
    rows[8] = "9c ks ad 10s"
    assert tw.parse(text(rows)) == tw.deal(1)


def test_dash_is_an_empty_column_in_a_position():
    source = "AS JH\n-\n3C\n" + "-\n" * 9 + "JD\nto-move: T\n"
    pos = tw.parse(source)
    names = [[card_name(c) for c in col] for col in pos.columns]
    assert names == [["AS", "JH"], [], ["3C"]] + [[]] * 9 + [["JD"]]
    assert pos.to_move == "T"
    assert tw.format_position(pos) == source
    empty = tw.parse("\n".join(["-"] * 13) + "\nto-move: T\n")
    assert empty.columns == ((),) * 13 and empty.to_move == "T" and empty.is_won()


def test_to_move_may_come_first_and_in_lowercase():
    pos = tw.parse("to-move: f\n" + DEAL_1)
    assert pos == tw.deal(1).start("F")
    pos = tw.parse(DEAL_1 + "  To-Move :  t  # T starts\n")
    assert pos == tw.deal(1).start("T")


def test_a_full_position_with_to_move_is_allowed():
    assert tw.parse(DEAL_1 + "to-move: T\n").to_move == "T"


# --- errors -----------------------------------------------------------------------------------


def test_duplicate_card_names_card_and_both_lines():
    rows = lines()
    rows[4] = "8H 4D 6S 9S"  # 9S is already on line 2 (AS goes missing)
    error = parse_error(text(rows))
    assert error.line == 5
    assert "duplicate card 9S (also on line 2)" in str(error)
    assert str(error).startswith("line 5: ")


def test_duplicate_card_within_one_line():
    rows = lines()
    rows[2] = "4H 5D QS 4H"
    error = parse_error(text(rows))
    assert error.line == 3
    assert "duplicate card 4H (also on line 3)" in str(error)


def test_duplicate_line_numbers_count_comments_and_blank_lines():
    rows = lines()
    rows[4] = "8H 4D 6S 9S"
    error = parse_error("# header\n\n" + text(rows))
    assert error.line == 7
    assert "(also on line 4)" in str(error)


def test_51_cards_names_the_missing_card():
    rows = lines()
    rows[4] = "8H 4D 6S"  # AS left out
    error = parse_error(text(rows))
    message = str(error)
    assert "51 cards" in message
    assert "missing: AS" in message
    assert "to-move" in message  # the hint that a position needs a to-move line


def test_50_cards_without_to_move_name_both_missing_cards():
    rows = lines()
    rows[4] = "8H 4D 6S"
    rows[12] = "3S JC QD"
    message = str(parse_error(text(rows)))
    assert "50 cards" in message and "missing: AS 7C" in message


def test_not_a_card_gives_its_line_number():
    rows = lines()
    rows[6] = "JH 1X AC 2D"
    error = parse_error(text(rows))
    assert error.line == 7
    assert "'1X'" in str(error) and "is not a card" in str(error)


@pytest.mark.parametrize("bad", ["ZZ", "0S", "11H", "7", "7HH", "-"])
def test_other_bad_tokens(bad):
    rows = lines()
    rows[9] = f"JS KD KC {bad}"
    error = parse_error(text(rows))
    assert error.line == 10
    assert repr(bad) in str(error)


def test_fourteen_columns():
    error = parse_error(DEAL_1 + "AS\n")
    assert error.line == 14
    assert "14th column" in str(error)


def test_fourteen_columns_even_if_the_extra_one_is_empty():
    error = parse_error(DEAL_1 + "-\nto-move: T\n")
    assert error.line == 14


def test_twelve_columns():
    error = parse_error(text(lines()[:12]))
    assert error.line is None
    assert "12 columns" in str(error) and "13" in str(error)


def test_no_columns_at_all():
    for source in ["", "# nothing\n\n", "to-move: T\n"]:
        error = parse_error(source)
        assert "0 columns" in str(error)


def test_a_column_of_five_cards():
    rows = lines()
    rows[3] = "8D 7D 4C 3C AS"
    error = parse_error(text(rows))
    assert error.line == 4
    assert "5 cards in one column" in str(error)


def test_a_column_of_five_cards_in_a_position():
    rows = lines()
    rows[3] = "8D 7D 4C 3C AS"
    rows[4] = "8H 4D 6S"
    error = parse_error(text(rows + ["to-move: T"]))
    assert error.line == 4


def test_a_deal_column_of_three_cards_without_to_move():
    rows = lines()
    rows[6] = "JH AH AC"
    error = parse_error(text(rows))
    assert "to-move" in str(error) and "missing: 2D" in str(error)
    # with a to-move line and the pair QH 2D (F's) gone, the same columns are a position
    rows[0] = "7H 2H TH"
    pos = tw.parse(text(rows + ["to-move: T"]))
    assert pos.remaining == 50 and pos.columns[6] == tuple(parse_card(n) for n in "JH AH AC".split())


def test_to_move_given_twice():
    error = parse_error(DEAL_1 + "to-move: T\n\nto-move: T\n")
    assert error.line == 16
    assert "a second 'to-move' line (first on line 14)" in str(error)


@pytest.mark.parametrize("value", ["X", "", "TF", "1", "T F"])
def test_to_move_invalid(value):
    error = parse_error(DEAL_1 + f"to-move: {value}\n")
    assert error.line == 14
    assert "must be T or F" in str(error)


@pytest.mark.parametrize("field", ["player", "to_move", "seed", "tomove"])
def test_unknown_field(field):
    error = parse_error(f"{field}: T\n" + DEAL_1)
    assert error.line == 1
    assert f"unknown field {field!r}" in str(error)


def test_odd_number_of_cards_gone_is_an_illegal_position():
    rows = lines()
    rows[4] = "8H 4D 6S"  # one card gone
    with pytest.raises(IllegalPositionError) as info:
        tw.parse(text(rows + ["to-move: T"]))
    assert isinstance(info.value, ValueError) and not isinstance(info.value, ParseError)
    assert "1 card gone" in str(info.value) and "51 remain" in str(info.value)
    rows[12] = "3S JC QD"
    rows[0] = "7H 2H TH"  # three cards gone
    with pytest.raises(IllegalPositionError):
        tw.parse(text(rows + ["to-move: F"]))


def test_check_position_rejects_what_parse_cannot_express():
    deal = tw.deal(1)
    with pytest.raises(IllegalPositionError):
        tw.check_position(Position(deal.columns[:12], "T"))
    with pytest.raises(IllegalPositionError):
        tw.check_position(Position(deal.columns, "X"))
    with pytest.raises(IllegalPositionError):
        tw.check_position(Position(((0, 1, 2, 3, 4),) + deal.columns[1:], "T"))
    with pytest.raises(IllegalPositionError):
        tw.check_position(Position(((0,), (0,)) + ((),) * 11, "T"))
    with pytest.raises(IllegalPositionError):  # a "deal" with cards missing
        tw.check_position(Position(((0,), (1,)) + ((),) * 11, None))
    ace, king = parse_card("AS"), parse_card("KS")
    tw.check_position(Position(((ace,), (king,)) + ((),) * 11, "F"))  # F's pair A-K left for F


# --- round trips ------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_format_parse_round_trip_for_deals(seed):
    deal = tw.deal(seed)
    source = tw.format_position(deal)
    assert len(source.splitlines()) == 13
    assert tw.parse(source) == deal


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from("TF"), st.integers(0, 26))
def test_format_parse_round_trip_for_positions(seed, starter, turns):
    rng = random.Random(seed)
    pos = tw.deal(seed).start(starter)
    for _ in range(turns):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.apply(rng.choice(moves))
    source = tw.format_position(pos)
    assert source.splitlines()[-1] == f"to-move: {pos.to_move}"
    assert tw.parse(source) == pos


@settings(max_examples=60, deadline=None)
@given(random_positions(most_pairs=26))
def test_round_trip_for_arbitrary_plausible_positions(pos):
    """Any plausible set of cards in any columns of height <= 4, including empty columns."""
    assert tw.parse(tw.format_position(pos)) == pos
