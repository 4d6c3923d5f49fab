"""The reference rules of Stapelen (puzzles/stapelen.py) against docs/games/stapelen.md."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import stapelen as sp
from puzzles.cards import RANKS, SUITS, parse_card, rank
from puzzles.errors import IllegalMoveError, ParseError
from puzzles.stapelen import Move, Position
from solver._native import deal as native_deal
from tests.conftest import random_walk


def c(name: str) -> int:
    return parse_card(name)


def cards(text: str) -> tuple[int, ...]:
    return tuple(c(n) for n in text.split())


def position(*columns: str, a=("", "", ""), b=("", "", ""), to_move: str = "A") -> Position:
    """13 columns from strings of card names (bottom first; missing columns are empty) and each
    player's three foundations (bottom first). Not every card need be present: the rules of
    play do not look at the missing ones."""
    cols = [cards(col) for col in columns] + [()] * (13 - len(columns))
    return Position(tuple(cols), (tuple(map(cards, a)), tuple(map(cards, b))), to_move)


def spec_moves(pos: Position) -> set[tuple[int, int]]:
    """docs/games/stapelen.md from scratch: (column, foundation) for every top card the mover may put on one
    of their own foundations (empty, or one rank higher with K followed by A)."""
    piles = pos.foundations[0 if pos.to_move == "A" else 1]
    moves = set()
    for column, cards_ in enumerate(pos.columns):
        if not cards_:
            continue
        for f, pile in enumerate(piles):
            if not pile or rank(cards_[-1]) == (rank(pile[-1]) % 13) + 1:
                moves.add((column, f))
    return moves


def random_play(seed: int, turns: int, rng: random.Random) -> Position:
    return random_walk(sp.deal(seed), turns, rng)


# --- building rule ------------------------------------------------------------------------------


@pytest.mark.parametrize("below, card, ok", [
    ("5S", "6H", True), ("5S", "7H", False), ("5S", "5H", False), ("6H", "5S", False),
    ("QC", "KD", True), ("KD", "AS", True), ("AS", "2S", True), ("AS", "KD", False), ("KD", "2S", False),
])
def test_follows_is_one_rank_up_with_k_then_a(below, card, ok):
    assert sp.follows(c(below), c(card)) is ok


def test_follows_matches_the_rank_cycle_for_every_pair_of_ranks():
    for low in range(13):
        for high in range(13):
            assert sp.follows(low, 13 + high) == (high == (low + 1) % 13), (RANKS[low], RANKS[high])


def test_king_then_ace_on_a_foundation():
    pos = position("AH", a=("QC KD", "", ""), b=("", "", ""))
    assert Move("A", c("AH"), 0, 0, c("KD")) in pos.legal_moves()
    after = pos.apply(Move("A", c("AH"), 0, 0, c("KD")))
    assert after.foundations_of("A")[0] == cards("QC KD AH")


def test_empty_foundation_takes_any_card():
    # A2 is empty; A1 shows 5S (takes a 6) and A3 9H (takes a 10).
    for card in (f"{r}{s}" for r in RANKS for s in SUITS):
        pos = position(card, a=("5S", "", "9H"))
        expected = {(1, None)} | ({(0, c("5S"))} if rank(c(card)) == 6 else set()) | (
            {(2, c("9H"))} if rank(c(card)) == 10 else set())
        assert {(m.foundation, m.onto) for m in pos.legal_moves()} == expected, card


def test_every_empty_foundation_is_offered():
    pos = position("7C")
    assert [(m.foundation, m.onto) for m in pos.legal_moves()] == [(0, None), (1, None), (2, None)]


# --- whose cards go where -------------------------------------------------------------------------


def test_only_own_foundations():
    # B's foundation shows a 6, but A is to move: A's foundations take only a 3.
    pos = position("7H", "3D", a=("2S", "2H", "2C"), b=("6S", "", ""))
    assert [(m.player, m.card, m.foundation) for m in pos.legal_moves()] == [
        ("A", c("3D"), 0), ("A", c("3D"), 1), ("A", c("3D"), 2)
    ]
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("B", c("7H"), 0, 0, c("6S")))
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("A", c("7H"), 0, 0, c("2S")))


def test_only_top_cards():
    pos = position("7H 9S", a=("6C", "", ""))
    assert {m.card for m in pos.legal_moves()} == {c("9S")}
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("A", c("7H"), 0, 0, c("6C")))
    after = pos.apply(Move("A", c("9S"), 0, 1, None))
    assert after.to_move == "B" and after.columns[0] == cards("7H")


def test_a_move_must_name_the_true_column_and_foundation_top():
    pos = position("7H", "9S", a=("6C", "", ""))
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("A", c("7H"), 1, 0, c("6C")))  # 7H is in column 1, not 2
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("A", c("7H"), 0, 0, None))  # A1 is not empty


def test_turns_alternate_and_apply_does_not_change_the_position():
    pos = position("7H", "8H", a=("6C", "", ""), b=("", "", ""))
    first = pos.apply(Move("A", c("8H"), 1, 1, None))
    assert first.to_move == "B" and pos.to_move == "A" and pos.columns[1] == cards("8H")
    second = first.apply(Move("B", c("7H"), 0, 0, None))
    assert second.to_move == "A" and second.foundations_of("B")[0] == cards("7H")
    assert second.is_won() and not second.is_lost()


def test_there_is_no_pass():
    pos = position("7H", a=("6C", "", ""))
    assert all(m.player == "A" and m.card == c("7H") for m in pos.legal_moves())
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("B", c("7H"), 0, 0, None))


def test_lost_when_the_mover_has_no_legal_card_even_if_the_other_could_move():
    # A's foundations take a 10; B's empty foundation would take the 5.
    pos = position("5H", a=("9S", "9C", "9D"), b=("2C", "", ""))
    assert pos.legal_moves() == [] and pos.is_lost() and not pos.is_won()
    assert Position(pos.columns, pos.foundations, "B").legal_moves() != []
    assert sp.reference_solve(pos) is None


def test_won_when_every_card_is_placed():
    pos = position(a=("AS", "", ""), b=("KS", "", ""), to_move="B")
    assert pos.remaining == 0 and pos.is_won() and not pos.is_lost()
    assert sp.reference_solve(pos) == []


def test_reference_solve_finds_a_line_that_replays_to_a_win():
    # A must take 7H first (onto the 6); then B starts a foundation with 8S.
    pos = position("8S 7H", a=("6C", "KD", "QC"), b=("JS", "JH", "JD"))
    line = sp.reference_solve(pos)
    assert line is None  # B's foundations take only a queen
    pos = position("8S 7H", a=("6C", "KD", "QC"), b=("JS", "JH", ""))
    line = sp.reference_solve(pos)
    assert [str(m) for m in line] == ["A: 7H (col 1) -> A1 on 6C", "B: 8S (col 1) -> B3 (empty)"]
    assert sp.replay(pos, line).is_won()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), turns=st.integers(0, 40), choice=st.integers(0, 2**32))
def test_legal_moves_match_the_rules_from_scratch(seed, turns, choice):
    pos = random_play(seed, turns, random.Random(choice))
    moves = pos.legal_moves()
    assert {(m.column, m.foundation) for m in moves} == spec_moves(pos)
    for m in moves:
        pile = pos.foundations_of(pos.to_move)[m.foundation]
        assert m.player == pos.to_move and m.card == pos.columns[m.column][-1]
        assert m.onto == (pile[-1] if pile else None)
    sp.check_position(pos)  # random play keeps every card and the turn counts consistent


# --- deals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 998, 2**64 - 1])
def test_deal_is_the_shared_seeded_layout_and_matches_the_kernel(seed):
    deal = sp.deal(seed)
    assert len(deal.columns) == 13 and all(len(col) == 4 for col in deal.columns)
    assert sorted(card for col in deal.columns for card in col) == list(range(52))
    assert deal.foundations == (((),) * 3, ((),) * 3) and deal.to_move == "A"
    assert [list(col) for col in deal.columns] == [list(col) for col in native_deal("stapelen", seed)]


# --- notation -------------------------------------------------------------------------------------


def test_move_notation_and_round_trip():
    on = Move("B", c("4D"), 1, 1, c("3S"))
    assert str(on) == "B: 4D (col 2) -> B2 on 3S"
    empty = Move("A", c("7H"), 4, 0, None)
    assert str(empty) == "A: 7H (col 5) -> A1 (empty)"
    for move in (on, empty):
        assert Move.parse(str(move)) == move
    assert Move.parse("  B: 10D (col 13) -> B3 on 9♠ ") == Move("B", c("TD"), 12, 2, c("9S"))


@pytest.mark.parametrize("text", [
    "A: 4D (col 2) -> B2 on 3S",  # onto the other player's foundation
    "B: 4D (col 2) -> B2",
    "B: 4D col 2 -> B2 on 3S",
    "C: 4D (col 2) -> C2 on 3S",
    "B: 4X (col 2) -> B2 on 3S",
    "",
])
def test_move_parse_rejects_malformed_text(text):
    with pytest.raises(ParseError):
        Move.parse(text)


def test_move_to_json_is_one_based():
    move = Move("B", c("4D"), 1, 2, c("3S"))
    assert move.to_json() == {"player": "B", "card": "4D", "column": 2, "foundation": 3}
    assert Move("A", c("KC"), 12, 0, None).to_json() == {"player": "A", "card": "KC", "column": 13, "foundation": 1}


def test_every_legal_move_round_trips_through_its_notation():
    rng = random.Random(9)
    for seed in range(1, 6):
        pos = random_play(seed, 12, rng)
        for move in pos.legal_moves():
            assert Move.parse(str(move)) == move
            assert pos.apply(Move.parse(str(move))) == pos.apply(move)
