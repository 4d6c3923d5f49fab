"""The reference rules of Twaalven en veertienen (puzzles/twaalven.py) against docs/games/twaalven.md."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import twaalven as tw
from puzzles.cards import parse_card, rank
from puzzles.errors import IllegalMoveError, IllegalPositionError, ParseError
from puzzles.twaalven import Move, Position

T_PAIRS = [("Q", "K"), ("A", "J"), ("2", "T"), ("3", "9"), ("4", "8"), ("5", "7"), ("6", "6")]
F_PAIRS = [("A", "K"), ("2", "Q"), ("3", "J"), ("4", "T"), ("5", "9"), ("6", "8"), ("7", "7")]


def c(name: str) -> int:
    return parse_card(name)


def position(*columns: str, to_move: str | None = "T") -> Position:
    """13 columns from strings of card names (bottom first); missing columns are empty."""
    cols = [tuple(c(n) for n in col.split()) for col in columns]
    cols += [()] * (13 - len(cols))
    return Position(tuple(cols), to_move)


def is_pair_by_spec(player: str, a: int, b: int) -> bool:
    """docs/games/twaalven.md from scratch: T sums to 12 or is Q+K, F sums to 14."""
    ra, rb = rank(a), rank(b)
    if player == "T":
        return ra + rb == 12 or {ra, rb} == {12, 13}
    return ra + rb == 14


def spec_moves(pos: Position) -> set[tuple[int, int]]:
    tops = [(i, col[-1]) for i, col in enumerate(pos.columns) if col]
    return {
        (ca, cb)
        for x, (ca, a) in enumerate(tops)
        for cb, b in tops[x + 1:]
        if is_pair_by_spec(pos.to_move, a, b)
    }


# --- pair types -------------------------------------------------------------------------------


def test_pair_tables_match_rules_md():
    assert len(tw.PAIRS["T"]) == 7 and len(tw.PAIRS["F"]) == 7
    assert not set(tw.PAIRS["T"]) & set(tw.PAIRS["F"])
    for player in "TF":
        for ra in range(1, 14):
            for rb in range(1, 14):
                a, b = ra - 1, 13 + rb - 1  # a spade and a heart of those ranks
                assert bool(tw.pair_type(player, a, b)) == is_pair_by_spec(player, a, b), (player, ra, rb)


@pytest.mark.parametrize("owner, pair", [("T", p) for p in T_PAIRS] + [("F", p) for p in F_PAIRS])
def test_each_pair_type_is_legal_for_its_player_only(owner, pair):
    a, b = pair[0] + "S", pair[1] + "H"
    for player in "TF":
        pos = position(a, b, to_move=player)
        moves = pos.legal_moves()
        if player == owner:
            assert moves == [Move(player, (c(a), c(b)), (0, 1))]
            after = pos.apply(moves[0])
            assert after.is_won()
        else:
            assert moves == []
            assert pos.is_lost()
            with pytest.raises(IllegalMoveError):
                pos.apply(Move(player, (c(a), c(b)), (0, 1)))


def test_queen_king_is_twelve_for_t_only():
    assert tw.pair_type("T", c("QS"), c("KD")) == (12, 13)
    assert tw.pair_type("F", c("QS"), c("KD")) is None
    assert tw.pair_type("T", c("6S"), c("6D")) == (6, 6)
    assert tw.pair_type("F", c("6S"), c("6D")) is None
    assert tw.pair_type("F", c("7S"), c("7D")) == (7, 7)
    assert tw.pair_type("T", c("7S"), c("7D")) is None
    assert tw.pair_type("T", c("KS"), c("KD")) is None
    assert tw.pair_type("F", c("AS"), c("KD")) == (1, 13)
    assert tw.pair_type("F", c("KD"), c("AS")) == (1, 13)


# --- legality ---------------------------------------------------------------------------------


def test_two_sixes_in_one_column_are_not_a_pair():
    pos = position("6S 6H", to_move="T")
    assert pos.legal_moves() == []
    assert pos.is_lost()
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("T", (c("6H"), c("6H")), (0, 0)))
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("T", (c("6S"), c("6H")), (0, 0)))


def test_only_top_cards_are_takeable():
    # 5C lies under 9D; 9D with 3H is a T pair; 5C with 7D would be one too but 5C is covered.
    pos = position("5C 9D", "3H", "7D", to_move="T")
    moves = pos.legal_moves()
    assert moves == [Move("T", (c("9D"), c("3H")), (0, 1))]
    with pytest.raises(IllegalMoveError):
        pos.apply(Move("T", (c("5C"), c("7D")), (0, 2)))
    after = pos.apply(moves[0])
    # now 5C is free, but it is F's turn: 5+7 is T's.
    assert after.to_move == "F" and after.legal_moves() == []


def test_apply_flips_player_and_removes_exactly_the_two_cards():
    pos = position("AS 2S", "3S QH", "4S", "JD 9C", to_move="F")
    move = Move("F", (c("2S"), c("QH")), (0, 1))
    assert pos.legal_moves() == [move]
    after = pos.apply(move)
    assert after.to_move == "T"
    assert after.remaining == pos.remaining - 2
    assert after.columns[0] == (c("AS"),) and after.columns[1] == (c("3S"),)
    assert after.columns[2:] == pos.columns[2:]
    assert pos.columns[0] == (c("AS"), c("2S"))  # the original is untouched


@pytest.mark.parametrize(
    "move",
    [
        Move("F", (c("9H"), c("3C")), (0, 1)),   # wrong player
        Move("T", (c("3C"), c("9H")), (0, 1)),   # cards listed in the wrong columns
        Move("T", (c("9H"), c("3C")), (0, 0)),   # same column
        Move("T", (c("9H"), c("3C")), (0, 13)),  # no column 14
        Move("T", (c("9H"), c("3C")), (-1, 1)),  # no column 0
        Move("T", (c("9H"), c("3C")), (0, 5)),   # empty column
        Move("T", (c("9H"), c("4D")), (0, 2)),   # not a pair
        Move("T", (c("AS"), c("3C")), (0, 1)),   # AS is covered, not the top
        Move("T", (c("9H"), c("2C")), (0, 1)),   # card not where the move says
    ],
)
def test_illegal_moves_raise(move):
    pos = position("AS 9H", "3C", "4D", to_move="T")
    assert Move("T", (c("9H"), c("3C")), (0, 1)) in pos.legal_moves()
    with pytest.raises(IllegalMoveError) as info:
        pos.apply(move)
    assert isinstance(info.value, ValueError)
    assert str(move) in str(info.value)


def test_a_deal_has_no_mover_until_a_starter_is_chosen():
    deal = tw.deal(1)
    with pytest.raises(IllegalPositionError):
        deal.legal_moves()
    assert deal.start("T").to_move == "T" and deal.start("F").to_move == "F"
    assert deal.start("T").columns == deal.columns


def test_there_is_no_pass():
    # F to move with only T pairs on top: no move at all, the game is lost.
    pos = position("QS", "KS", "5D", "7D", to_move="F")
    assert pos.legal_moves() == []
    assert pos.is_lost() and not pos.is_won()
    assert tw.reference_solve(pos) is None
    # the same cards with T to move are playable
    assert len(pos.start("T").legal_moves()) == 2


def test_is_won_on_the_empty_tableau():
    for player in "TF":
        empty = position(to_move=player)
        assert empty.remaining == 0
        assert empty.is_won() and not empty.is_lost()
        assert empty.legal_moves() == []
        assert tw.reference_solve(empty) == []


def test_legal_moves_list_each_unordered_pair_once_in_column_order():
    pos = position("6S", "6H", "6D", "6C", to_move="T")
    moves = pos.legal_moves()
    assert [m.columns for m in moves] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


# --- Move text and JSON -----------------------------------------------------------------------


def test_move_str_and_parse_round_trip():
    move = Move("T", (c("9H"), c("3C")), (3, 10))
    assert str(move) == "T: 9H (col 4) + 3C (col 11)"
    assert Move.parse("T: 9H (col 4) + 3C (col 11)") == move
    assert Move.parse("  T:9H (col 4)+3C (col 11) ") == move
    assert Move.parse("F: 10S (col 13) + 4h (col 1)") == Move("F", (c("TS"), c("4H")), (12, 0))
    for text in ["T 9H (col 4) + 3C (col 11)", "X: 9H (col 4) + 3C (col 11)", "T: 9H + 3C", ""]:
        with pytest.raises(ParseError):
            Move.parse(text)
    with pytest.raises(ParseError):
        Move.parse("T: 1X (col 4) + 3C (col 11)")


def test_move_to_json_shape():
    move = Move("F", (c("TS"), c("4H")), (0, 12))
    assert move.to_json() == {"player": "F", "cards": ["TS", "4H"], "columns": [1, 13]}


# --- conformance over random positions --------------------------------------------------------


def random_walk(seed: int, starter: str) -> list[Position]:
    """Positions along random play from the seeded deal until no move is left."""
    rng = random.Random(seed)
    pos = tw.deal(seed).start(starter)
    walk = [pos]
    while moves := pos.legal_moves():
        pos = pos.apply(rng.choice(moves))
        walk.append(pos)
    return walk


def check_position_laws(pos: Position) -> None:
    tw.check_position(pos)
    moves = pos.legal_moves()
    assert {m.columns for m in moves} == spec_moves(pos)
    assert len(set(moves)) == len(moves)
    assert pos.is_lost() == (not moves and pos.remaining > 0)
    copy = Position(tuple(tuple(col) for col in pos.columns), pos.to_move)
    assert copy == pos and hash(copy) == hash(pos)
    assert pos != pos.start(tw.other(pos.to_move))
    assert tw.parse(tw.format_position(pos)) == pos
    children = set()
    for move in moves:
        assert move.player == pos.to_move
        assert Move.parse(str(move)) == move
        after = pos.apply(move)
        assert after.to_move == tw.other(pos.to_move)
        assert after.remaining == pos.remaining - 2
        gone = {card for col in pos.columns for card in col} - {card for col in after.columns for card in col}
        assert gone == set(move.cards)
        for i, (before_col, after_col) in enumerate(zip(pos.columns, after.columns)):
            if i in move.columns:
                assert after_col == before_col[:-1]
            else:
                assert after_col == before_col
        assert after == pos.apply(move) and hash(after) == hash(pos.apply(move))
        children.add(after)
        tw.check_position(after)
    assert len(children) == len(moves)  # different moves lead to different positions
    # positions work as dict keys
    table = {child: i for i, child in enumerate(children)}
    for child in children:
        assert table[Position(child.columns, child.to_move)] == table[child]


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from("TF"))
def test_conformance_along_random_play(seed, starter):
    walk = random_walk(seed, starter)
    assert walk[0].remaining == 52
    for pos in walk:
        check_position_laws(pos)
    assert walk[-1].is_won() or walk[-1].is_lost()


def test_replay_applies_and_checks_each_move():
    walk_seed = 5
    rng = random.Random(walk_seed)
    start = tw.deal(walk_seed).start("T")
    pos, moves = start, []
    for _ in range(5):
        legal = pos.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        pos = pos.apply(move)
    assert moves, "seed 5 should allow at least one move"
    assert tw.replay(start, moves) == pos
    assert tw.replay(start, []) == start
    with pytest.raises(IllegalMoveError):
        tw.replay(start, moves + moves[-1:])


def test_reference_solve_finds_a_replayable_win():
    pos = position("AH 3S", "KD 9C", to_move="T")
    # T takes 3S+9C, then F takes AH+KD.
    line = tw.reference_solve(pos)
    assert line == [Move("T", (c("3S"), c("9C")), (0, 1)), Move("F", (c("AH"), c("KD")), (0, 1))]
    assert tw.replay(pos, line).is_won()
    assert tw.reference_solve(pos.start("F")) is None
