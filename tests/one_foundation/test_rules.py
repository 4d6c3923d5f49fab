"""The reference rules of All in a Row and Black Hole (puzzles/one_foundation.py) against
docs/games/all-in-a-row.md and black-hole.md: moves, won and lost, the text format with every error path, and the seeded deals
against the Rust kernel's."""

from __future__ import annotations

import random

import pytest

from puzzles.cards import card_name, parse_card, rank, shuffled, shuffled_deck
from puzzles.errors import IllegalMoveError, IllegalPositionError, ParseError
from puzzles.one_foundation import ALL_IN_A_ROW, BLACK_HOLE, Move, Position, adjacent
from solver import _native
from tests.conftest import random_walk as walk

GAMES = [ALL_IN_A_ROW, BLACK_HOLE]
AS = parse_card("AS")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(name) for name in text.split())


def layout(game, *columns: str, foundation: str = "") -> Position:
    """`game`'s columns from strings of card names (bottom first), the rest empty; the
    foundation as given (only its top card matters to the moves)."""
    cols = [cards(column) for column in columns]
    return Position(tuple(cols + [()] * (game.COLUMNS - len(cols))), cards(foundation))


def names(column) -> str:
    return " ".join(card_name(c) for c in column)


def random_walk(game, seed: int, steps: int) -> Position:
    """The seeded deal after up to `steps` random legal moves."""
    return walk(game.deal(seed), steps, random.Random(seed))


# --- moves ------------------------------------------------------------------------------------


def test_adjacent_is_one_rank_apart_with_king_and_ace_adjacent():
    for a in range(52):
        for b in range(52):
            gap = abs(rank(a) - rank(b))
            assert adjacent(a, b) == (gap in (1, 12)), (card_name(a), card_name(b))
    assert adjacent(parse_card("KH"), parse_card("AC")) and adjacent(parse_card("AC"), parse_card("KH"))
    assert adjacent(parse_card("7S"), parse_card("6S")) and adjacent(parse_card("7S"), parse_card("8D"))
    assert not adjacent(parse_card("7S"), parse_card("7H")) and not adjacent(parse_card("QS"), parse_card("AS"))


def test_all_in_a_row_starts_empty_and_takes_any_top_card():
    deal = ALL_IN_A_ROW.deal(1)
    assert deal.foundation == ()
    moves = deal.legal_moves()
    assert moves == [Move(column[-1], c) for c, column in enumerate(deal.columns)]
    after = deal.apply(moves[5])
    assert after.foundation == (deal.columns[5][-1],)
    assert after.columns[5] == deal.columns[5][:-1] and after.remaining == 51


def test_black_hole_starts_with_the_ace_of_spades():
    deal = BLACK_HOLE.deal(1)
    assert deal.foundation == (AS,) and deal.remaining == 51
    assert all(AS not in column for column in deal.columns)
    moves = deal.legal_moves()
    assert moves and all(rank(m.card) in (2, 13) for m in moves)
    tops = [column[-1] for column in deal.columns]
    assert {m.card for m in moves} == {card for card in tops if rank(card) in (2, 13)}


def test_king_follows_ace_and_ace_follows_king():
    position = layout(BLACK_HOLE, "KD", "QC", "2H", "AH", foundation="AS")
    assert [str(m) for m in position.legal_moves()] == ["KD (col 1)", "2H (col 3)"]
    on_king = position.apply(Move(parse_card("KD"), 0))
    assert [str(m) for m in on_king.legal_moves()] == ["QC (col 2)", "AH (col 4)"]


def test_only_top_cards_move():
    # 6H fits the 7D on the foundation but lies under the 2C.
    position = layout(BLACK_HOLE, "6H 2C", "8S", foundation="AS 2S 3S 4S 5S 6S 7D")
    assert position.legal_moves() == [Move(parse_card("8S"), 1)]
    with pytest.raises(IllegalMoveError):
        position.apply(Move(parse_card("6H"), 0))
    with pytest.raises(IllegalMoveError):
        position.apply(Move(parse_card("2C"), 0))  # a top card that does not fit
    with pytest.raises(IllegalMoveError):
        position.apply(Move(parse_card("8S"), 0))  # a card named in the wrong column


def test_no_legal_move_is_lost_and_no_cards_is_won():
    stuck = layout(ALL_IN_A_ROW, "5C", "9H", foundation="7S")
    assert stuck.legal_moves() == [] and stuck.is_lost() and not stuck.is_won()
    won = layout(BLACK_HOLE, foundation="AS")
    assert won.is_won() and not won.is_lost() and won.legal_moves() == []
    last = layout(BLACK_HOLE, "2D", foundation="AS")
    assert not last.is_lost() and last.apply(last.legal_moves()[0]).is_won()


def test_move_text_and_json():
    move = Move(parse_card("7H"), 2)
    assert str(move) == "7H (col 3)"
    assert Move.parse("7H (col 3)") == move
    assert Move.parse("  7♥ (col 3) ") == move and Move.parse("7h (col 3)") == move
    assert move.to_json() == {"card": "7H", "column": 3}
    assert Move.parse(str(Move(parse_card("TC"), 16))) == Move(parse_card("TC"), 16)
    for bad in ["7H", "7H col 3", "7H (column 3)", "7X (col 3)", ""]:
        with pytest.raises(ParseError):
            Move.parse(bad)


def test_every_move_of_a_random_game_round_trips():
    for game in GAMES:
        position = game.deal(5)
        while moves := position.legal_moves():
            for move in moves:
                assert Move.parse(str(move)) == move
                assert move.to_json() == {"card": card_name(move.card), "column": move.column + 1}
                assert position.columns[move.column][-1] == move.card
            position = position.apply(moves[-1])
        assert position.is_won() or position.is_lost()


# --- seeded deals -----------------------------------------------------------------------------


def test_all_in_a_row_deal_follows_rules_md():
    deck = shuffled_deck(7)
    deal = ALL_IN_A_ROW.deal(7)
    assert all(deal.columns[k % 13][k // 13] == card for k, card in enumerate(deck))
    assert sorted(c for column in deal.columns for c in column) == list(range(52))


def test_black_hole_deal_follows_rules_md():
    deck = shuffled([c for c in range(52) if c != AS], 7)
    deal = BLACK_HOLE.deal(7)
    assert [len(column) for column in deal.columns] == [3] * 17
    assert all(deal.columns[k % 17][k // 17] == card for k, card in enumerate(deck))


@pytest.mark.parametrize(
    "game, seed, first_column",
    [
        (ALL_IN_A_ROW, 1, "7H 2H TH QH"),
        (ALL_IN_A_ROW, 7, "4H JC 6C 5D"),
        (BLACK_HOLE, 1, "6C 3H 8C"),
        (BLACK_HOLE, 7, "2D 8H 4C"),
    ],
)
def test_fixed_first_columns(game, seed, first_column):
    """Computed once and written in: deals must stay stable forever."""
    assert names(game.deal(seed).columns[0]) == first_column


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_python_deals_equal_rust_deals(game):
    for seed in [*range(200), 2**32 - 1, 2**32, 2**63, 2**64 - 1]:
        rust = [list(column) for column in _native.deal(game.NAME, seed)]
        assert rust == [list(column) for column in game.deal(seed).columns], seed


# --- text format ------------------------------------------------------------------------------


def parse_error(game, text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        game.parse(text)
    return info.value


def deal_lines(game, seed: int = 1) -> list[str]:
    return game.format_position(game.deal(seed)).splitlines()


def text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_deals_round_trip(game):
    for seed in range(1, 30):
        deal = game.deal(seed)
        source = game.format_position(deal)
        assert len(source.splitlines()) == game.COLUMNS  # a deal has no foundation line
        assert game.parse(source) == deal


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_positions_round_trip(game):
    seen_empty_column = False
    for seed in range(1, 40):
        position = random_walk(game, seed, steps=seed)
        source = game.format_position(position)
        if position.foundation != game.start():
            assert source.splitlines()[-1] == "foundation: " + names(position.foundation)
        seen_empty_column |= "\n-\n" in "\n" + source
        assert game.parse(source) == position
    assert seen_empty_column


def test_comments_blank_lines_tens_and_suit_symbols_are_accepted():
    lines = deal_lines(ALL_IN_A_ROW)
    lines[0] = "7♥ 2h 10H qH   # column 1, bottom first"
    assert ALL_IN_A_ROW.parse("# seed 1\n\n" + text(lines) + "\n# end\n") == ALL_IN_A_ROW.deal(1)


def test_the_black_hole_deal_text_is_seed_1():
    source = (
        "6C 3H 8C\n3D QD QH\nTH 4S JD\nJH QS KC\n9C 8S TC\n5H 6H 6D\n7S 2C AH\nTD JS 6S\n4D 9D 2D\n"
        "5D 7H AD\nQC KD 2S\n4C 9S 9H\n5S KH JC\n5C AC KS\n7D TS 4H\n3C 8D 8H\n2H 3S 7C\n"
    )
    assert BLACK_HOLE.parse(source) == BLACK_HOLE.deal(1)
    assert BLACK_HOLE.format_position(BLACK_HOLE.deal(1)) == source


def test_bad_card_names_its_line():
    lines = deal_lines(BLACK_HOLE)
    lines[4] = "9C 8S 1C"
    error = parse_error(BLACK_HOLE, text(lines))
    assert error.line == 5 and "'1C' is not a card" in str(error)


def test_duplicate_card_names_both_lines():
    lines = deal_lines(ALL_IN_A_ROW)
    lines[6] = lines[6].replace(lines[6].split()[0], lines[1].split()[2])  # column 2's third card again
    error = parse_error(ALL_IN_A_ROW, "# a comment line first\n" + text(lines))
    assert error.line == 8
    assert str(error) == f"line 8: duplicate card {lines[1].split()[2]} (also on line 3)"


def test_duplicate_between_a_column_and_the_foundation():
    position = random_walk(BLACK_HOLE, 3, steps=6)
    assert len(position.foundation) == 7
    lines = BLACK_HOLE.format_position(position).splitlines()
    c = next(i for i, column in enumerate(position.columns) if column)
    again = card_name(position.columns[c][0])
    lines[-1] += " " + again
    error = parse_error(BLACK_HOLE, text(lines))
    assert error.line == 18 and f"duplicate card {again} (also on line {c + 1})" in str(error)


def test_too_many_and_too_few_columns():
    error = parse_error(BLACK_HOLE, text(deal_lines(BLACK_HOLE) + ["-"]))
    assert error.line == 18 and "18th column; Black Hole has 17 columns" in str(error)
    error = parse_error(ALL_IN_A_ROW, text(deal_lines(ALL_IN_A_ROW) + ["-"]))
    assert error.line == 14 and "14th column; All in a Row has 13 columns" in str(error)
    error = parse_error(BLACK_HOLE, text(deal_lines(BLACK_HOLE)[:-1]))
    assert "16 columns; Black Hole has 17" in str(error)


def test_column_deeper_than_the_game_allows():
    lines = deal_lines(BLACK_HOLE)
    moved = lines[1].split()[-1]
    lines[0] += " " + moved
    lines[1] = " ".join(lines[1].split()[:-1])
    error = parse_error(BLACK_HOLE, text(lines))
    assert error.line == 1 and "4 cards in one column; at most 3" in str(error)
    error = parse_error(ALL_IN_A_ROW, "AS 2S 3S 4S 5S\n" + "-\n" * 12)
    assert error.line == 1 and "5 cards in one column; at most 4" in str(error)


def test_missing_cards_in_a_deal_are_listed():
    lines = deal_lines(ALL_IN_A_ROW)
    gone = lines[3].split()[-1]
    lines[3] = " ".join(lines[3].split()[:-1])
    error = parse_error(ALL_IN_A_ROW, text(lines))
    assert f"51 cards; a deal has 52 (missing: {gone})" in str(error)
    assert "needs a 'foundation: …' line" in str(error)


def test_missing_cards_in_a_position_are_listed():
    position = random_walk(BLACK_HOLE, 4, steps=10)
    lines = BLACK_HOLE.format_position(position).splitlines()
    c = next(i for i, column in enumerate(position.columns) if column)
    gone = card_name(position.columns[c][-1])
    lines[c] = names(position.columns[c][:-1]) or "-"
    with pytest.raises(IllegalPositionError) as info:
        BLACK_HOLE.parse(text(lines))
    assert f"(missing: {gone})" in str(info.value)


def test_black_hole_deal_with_the_ace_of_spades_in_a_column():
    lines = deal_lines(BLACK_HOLE)
    lines[2] = lines[2].replace(lines[2].split()[0], "AS")
    error = parse_error(BLACK_HOLE, text(lines))
    assert error.line == 3 and "AS starts the foundation in Black Hole" in str(error)


def test_foundation_breaking_adjacency_is_named():
    columns = ["-"] * 13
    rest = [card_name(c) for c in range(52) if card_name(c) not in ("7H", "9D")]
    columns[0] = " ".join(rest[:4])
    for i in range(1, 13):
        columns[i] = " ".join(rest[4 * i:4 * i + 4]) or "-"
    with pytest.raises(IllegalPositionError) as info:
        ALL_IN_A_ROW.parse(text(columns + ["foundation: 7H 9D"]))
    assert str(info.value) == "foundation: 9D cannot follow 7H (one rank up or down, K and A adjacent)"


def test_black_hole_foundation_must_start_with_the_ace_of_spades():
    position = random_walk(BLACK_HOLE, 6, steps=8)
    assert position.foundation[0] == AS and len(position.foundation) == 9
    columns = list(position.columns)
    c = next(i for i, column in enumerate(columns) if len(column) < 3)
    columns[c] += (AS,)
    source = BLACK_HOLE.format_position(Position(tuple(columns), position.foundation[1:]))
    with pytest.raises(IllegalPositionError) as info:
        BLACK_HOLE.parse(source)
    assert str(info.value) == "the foundation must start with AS"


def test_unknown_field_and_repeated_foundation():
    error = parse_error(BLACK_HOLE, text(deal_lines(BLACK_HOLE) + ["to-move: T"]))
    assert error.line == 18 and "unknown field 'to-move'" in str(error) and "foundation: AS 2H 3D" in str(error)
    position = random_walk(BLACK_HOLE, 8, steps=3)
    assert len(position.foundation) == 4
    source = BLACK_HOLE.format_position(position)
    error = parse_error(BLACK_HOLE, source + source.splitlines()[-1] + "\n")
    assert str(error) == "line 19: a second 'foundation' line (first on line 18)"


def test_check_position_rejects_wrong_shapes():
    with pytest.raises(IllegalPositionError, match="12 columns; All in a Row has 13"):
        ALL_IN_A_ROW.check_position(Position(ALL_IN_A_ROW.deal(1).columns[:12]))
    deal = BLACK_HOLE.deal(1)
    deep = (deal.columns[0] + deal.columns[1][:1], deal.columns[1][1:], *deal.columns[2:])
    with pytest.raises(IllegalPositionError, match="column 1 holds 4 cards; at most 3"):
        BLACK_HOLE.check_position(Position(deep, deal.foundation))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_is_legal_accepts_exactly_the_legal_moves(game):
    """`apply` checks a move with `is_legal`; it must agree with `legal_moves` on every
    (card, column) pair, along random games from seeded deals."""
    rng = random.Random(game.NAME)
    for seed in range(1, 11):
        position = game.deal(seed)
        while True:
            every = [Move(card, column) for card in range(52) for column in range(-1, game.COLUMNS + 1)]
            assert {m for m in every if position.is_legal(m)} == set(position.legal_moves())
            if not position.legal_moves():
                break
            position = position.apply(rng.choice(position.legal_moves()))
