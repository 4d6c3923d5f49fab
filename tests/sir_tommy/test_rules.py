"""The reference rules of Sir Tommy voor twee (puzzles/sir_tommy.py) against docs/games/sir-tommy.md, the text
formats and every parse and plausibility error."""

from __future__ import annotations

import re

import pytest

from puzzles import sir_tommy as st
from puzzles.cards import card_name, parse_card, shuffled_deck
from puzzles.errors import IllegalMoveError, IllegalPositionError, ParseError
from puzzles.sir_tommy import EndTurn, Play, Position
from solver._native import deal as native_deal
from solver.games.sir_tommy.reasons import where


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in text.split())


def c(name: str) -> int:
    return parse_card(name)


def position(rows=("", "", "", ""), stock="", hand="", u=("", "", "", ""), d=("", "", "", ""), to_move="U",
             top_rank=13) -> Position:
    """A position from card names; not every card need be present for the rules of play."""
    return Position(cards(stock), cards(hand), tuple(map(cards, rows)), (tuple(map(cards, u)), tuple(map(cards, d))),
                    to_move, top_rank)


# --- deals --------------------------------------------------------------------------------------


def test_seeded_deal_is_the_shuffled_deck_with_u_holding_the_first_three():
    deal = st.deal(7)
    assert deal.hand + deal.stock == tuple(shuffled_deck(7))
    assert " ".join(card_name(x) for x in deal.hand + deal.stock[:3]) == "4H 5S JD 3C 4D TD"
    assert deal.to_move == "U" and deal.rows == ((),) * 4 and len(deal.hand) == 3


@pytest.mark.parametrize("seed", [0, 1, 7, 2**64 - 1])
def test_rust_deal_is_the_python_deal(seed):
    assert [list(stock) for stock in native_deal("sir-tommy", seed)] == [shuffled_deck(seed)]


def test_rows_variant():
    assert len(st.deal(3, rows=6).rows) == 6
    with pytest.raises(IllegalPositionError, match="--rows 9"):
        st.deal(3, rows=9)


def test_deal_text_is_the_stock_in_any_whitespace():
    deal = st.deal(11)
    text = st.format_position(deal)
    assert len(text.split()) == 52 and text.split()[0] == card_name(deal.hand[0])
    assert st.parse(text) == deal
    assert st.parse("\t".join(text.split()) + "\n\n") == deal


def test_a_reduced_deck_builds_d_down_from_its_top_rank():
    deal = st.parse("3S AS 2H  AH 3H 2S")
    assert deal.top_rank == 3 and deal.hand == cards("3S AS 2H")
    moves = deal.legal_moves()
    assert Play("U", c("AS"), -1, 0, None) in moves
    # U can not start with 3S: that is D's start, and D is not to move
    assert not any(isinstance(m, Play) and m.card == c("3S") for m in moves)


@pytest.mark.parametrize("text, message", [
    ("AS 2S ZZ", "'ZZ' is not a card"),
    ("AS 2S AS", "duplicate card AS"),
    (" ".join(card_name(x) for x in range(51)), "missing: KC"),
    ("AS 2S AH", "missing: 2H"),
    ("# nothing", "no cards"),
    ("2S", "^1 card; a deal is all 52 .*missing: AS"),
])
def test_bad_deals_are_refused_quoting_the_input(text, message):
    with pytest.raises(ParseError, match=message):
        st.parse(text)


# --- positions ----------------------------------------------------------------------------------

def test_a_position_reads_back_from_its_text():
    pos = st.deal(5)
    for move in [pos.legal_moves()[0]] + [None] * 3:
        if move:
            pos = pos.apply(move)
        else:
            pos = pos.apply(next(m for m in pos.legal_moves() if isinstance(m, EndTurn)))
        assert st.parse(st.format_position(pos)) == pos


def test_a_position_without_a_hand_line_is_the_start_of_a_turn():
    pos = st.deal(5).apply(next(m for m in st.deal(5).legal_moves() if isinstance(m, EndTurn)))
    text = st.format_position(pos).replace(f"hand: {' '.join(card_name(x) for x in pos.hand)}\n", "")
    stock_line = next(line for line in text.splitlines() if line.startswith("stock:"))
    text = text.replace(stock_line, f"stock: {' '.join(card_name(x) for x in pos.hand + pos.stock)}")
    assert st.parse(text) == pos


def test_a_line_from_a_hand_line_does_not_claim_its_draw():
    """The cards of a `hand:` line were drawn before the position: the line's first turn said
    'D drew ...', a draw it did not make. Without the line the mover draws, and says so."""
    pos = st.deal(5).apply(next(m for m in st.deal(5).legal_moves() if isinstance(m, EndTurn)))
    text = st.format_position(pos)
    end = next(m for m in pos.legal_moves() if isinstance(m, EndTurn))
    (first,) = st.turns(st.parse(text), [end])
    assert str(first).startswith("D: D places ") and list(first.to_json()) == ["player", "plays", "placed"]
    hand = " ".join(card_name(x) for x in pos.hand)
    text = text.replace(f"hand: {hand}\n", "").replace("stock: ", f"stock: {hand} ")
    (first,) = st.turns(st.parse(text), [end])
    assert str(first).startswith(f"D drew {hand}: ") and list(first.to_json()) == ["player", "drew", "plays", "placed"]


def played_out(seed: int, rows: int = 4) -> Position:
    """The seed's deal played to the end phase by always taking the first legal move."""
    pos = st.deal(seed, rows=rows)
    while not pos.end_phase:
        pos = pos.apply(pos.legal_moves()[0])
    return pos


def test_errors_in_positions_quote_the_input():
    pos = played_out(3)
    text = st.format_position(pos)
    bad = {
        "unknown field": text + "score: 3\n",
        "'XX' is not a card": text.replace("stock: -", "stock: XX"),
        "lists 3 foundations": "\n".join(line if not line.startswith("U:") else "U: -, -, -" for line in text.splitlines()),
        "a 5th row": "QS\n" + text,
        "needs a 'stock:' line": "\n".join(line for line in text.splitlines() if not line.startswith("stock")),
        "to-move 'X'": text.replace("to-move: U", "to-move: X").replace("to-move: D", "to-move: X"),
    }
    for message, broken in bad.items():
        with pytest.raises(ParseError, match=message):
            st.parse(broken)


def test_implausible_positions_are_refused():
    pos = played_out(3)
    u_piles = pos.foundations_of("U")
    f = next(i for i, pile in enumerate(u_piles) if len(pile) >= 2)
    swapped = list(u_piles)
    swapped[f] = (u_piles[f][1], u_piles[f][0]) + u_piles[f][2:]
    cases = {
        f"foundation U{f + 1}": Position(pos.stock, pos.hand, pos.rows, (tuple(swapped), pos.foundations[1]), "U"),
        "appears twice": Position(pos.stock, pos.hand, pos.rows[:-1] + (pos.rows[-1] + (u_piles[f][0],),), pos.foundations, "U"),
        "--rows 9": Position(pos.stock, pos.hand, pos.rows + ((),) * 5, pos.foundations, "U"),
    }
    for message, bad in cases.items():
        with pytest.raises(IllegalPositionError, match=message):
            st.check_position(bad)
    deal = st.deal(4)
    with pytest.raises(IllegalPositionError, match="4 cards in hand"):
        st.check_position(Position(deal.stock[1:], deal.hand + deal.stock[:1], deal.rows))
    with pytest.raises(IllegalPositionError, match="48 cards in the stock"):
        st.check_position(Position(deal.stock[1:], deal.hand, deal.rows[:-1] + (deal.stock[:1],)))
    with pytest.raises(IllegalPositionError, match="U made draw 1"):
        st.check_position(Position(deal.stock, deal.hand, deal.rows, to_move="D"))
    with pytest.raises(IllegalPositionError, match="missing: 2S"):
        st.check_position(Position(tuple(x for x in deal.stock if x != c("2S")), deal.hand, deal.rows))


def test_a_bad_stock_count_quotes_the_cards_on_the_stock_line():
    """Seed 5 after U's turn, with 9D moved from the stock to row 3: the stock line holds 48
    cards, also when the parser has drawn D's three from it (no hand line)."""
    deal = st.deal(5)
    cards = [card_name(x) for x in deal.hand + deal.stock]
    assert cards[:4] == ["8C", "KC", "4C", "9D"]
    text = f"4C KC\n8C\n9D\n-\nstock: {' '.join(cards[4:])}\nU: -, -, -, -\nD: -, -, -, -\n"
    message = re.escape("48 cards in the stock of 52: draws of 3 leave 49, 46, … or none")
    for hand in ("", "hand: -\n"):
        with pytest.raises(IllegalPositionError, match=f"^{message}$"):
            st.parse(text + hand + "to-move: D\n")


def test_a_position_without_a_to_move_line_says_so_when_u_cannot_be_the_mover():
    pos = st.deal(5)
    pos = pos.apply(next(m for m in pos.legal_moves() if isinstance(m, EndTurn)))
    text = st.format_position(pos)
    assert "to-move: D\n" in text
    with pytest.raises(IllegalPositionError, match="^no 'to-move:' line, so U is to move, but D made draw 2 "):
        st.parse(text.replace("to-move: D\n", ""))


def test_the_last_draw_takes_the_single_card_left():
    pos = st.deal(8)
    while pos.stock:
        pos = pos.apply(next(m for m in pos.legal_moves() if isinstance(m, EndTurn)))
    assert len(pos.hand) == 1 and pos.to_move == "D"  # draw 18 of 1 card: an even draw, D's
    with pytest.raises(IllegalPositionError, match="2 cards in hand but the last draw took 1"):
        st.check_position(Position(pos.stock, pos.hand + pos.rows[-1][-1:], pos.rows[:-1] + (pos.rows[-1][:-1],),
                                   pos.foundations, "D"))


# --- plays ----------------------------------------------------------------------------------------


def test_u_builds_up_from_aces_and_d_down_from_kings():
    pos = position(rows=("7C 2S", "KD", "", ""), hand="AS QD 3H", to_move="U")
    plays = {str(m) for m in pos.legal_moves() if isinstance(m, Play)}
    assert plays == {"AS from drawn -> U foundation 1 (empty)"}
    pos = pos.apply(Play.parse("AS from drawn -> U foundation 1 (empty)"))
    plays = {str(m) for m in pos.legal_moves() if isinstance(m, Play)}
    assert plays == {"2S from row 1 -> U foundation 1 on AS"}
    pos = pos.apply(Play.parse("2S from row 1 -> U foundation 1 on AS"))
    plays = {str(m) for m in pos.legal_moves() if isinstance(m, Play)}
    assert plays == {"3H from drawn -> U foundation 1 on 2S"}  # 7C is exposed but does not fit
    d_turn = position(rows=("7C 2S", "KD", "", ""), hand="AS QD 3H", to_move="D")
    assert {str(m) for m in d_turn.legal_moves() if isinstance(m, Play)} == {"KD from row 2 -> D foundation 1 (empty)"}
    after = d_turn.apply(Play.parse("KD from row 2 -> D foundation 1 (empty)"))
    assert {str(m) for m in after.legal_moves() if isinstance(m, Play)} == {"QD from drawn -> D foundation 1 on KD"}


def test_a_full_foundation_takes_nothing_more():
    full_u = " ".join(card_name(x) for x in range(13))  # AS..KS
    pos = position(rows=("AH", "", "", ""), hand="KH", u=(full_u, "", "", ""), to_move="U")
    assert {str(m) for m in pos.legal_moves() if isinstance(m, Play)} == {"AH from row 1 -> U foundation 2 (empty)"}


def test_illegal_plays_are_refused_with_the_reason():
    pos = position(rows=("7C 2S", "KD", "", ""), hand="AS QD 3H", to_move="U")
    with pytest.raises(IllegalMoveError, match="7C is not the top of row 1"):
        pos.apply(Play("U", c("7C"), 0, 0, None))
    with pytest.raises(IllegalMoveError, match="does not fit"):
        pos.apply(Play("U", c("3H"), -1, 0, None))
    with pytest.raises(IllegalMoveError, match="U is to move"):
        pos.apply(Play("D", c("KD"), 1, 0, None))
    with pytest.raises(IllegalMoveError, match="KD is not in hand"):
        pos.apply(Play("U", c("KD"), -1, 0, None))


# --- ending a turn ------------------------------------------------------------------------------


def test_playing_is_never_compulsory_and_an_empty_row_need_not_be_used():
    """Seed 003, Sir Tommy voor twee: "Het is niet verplicht om kaarten die op de eigen fundamenten
    passen ook daadwerkelijk erop te stapelen. Het is dus toegestaan om geschikte kaarten op het
    tableau te laten liggen en ook om passende kaarten van de raapstapel niet te op een fundament te
    stapelen." (playing a card that fits is not compulsory: a fitting row top may stay, a fitting
    drawn card may go to the rows) and "Als een rij van het tableau (nog of weer) leeg is, dan mag
    hier een kaart gelegd worden, maar dit hoeft niet." (an empty row may take a card, but need not)."""
    pos = position(rows=("7C 2S", "KD", "", ""), stock="9H", hand="AS QD 3H", to_move="U")
    assert "AS from drawn -> U foundation 1 (empty)" in {str(m) for m in pos.legal_moves()}
    # U plays nothing: the fitting AS goes on a row, and rows 3 and 4 stay empty
    end = EndTurn("U", ((c("AS"), 0), (c("QD"), 1), (c("3H"), 1)))
    assert end in pos.legal_moves()
    after = pos.apply(end)
    assert after.rows == (cards("7C 2S AS"), cards("KD QD 3H"), (), ())
    assert after.to_move == "D" and after.hand == cards("9H") and after.foundations == pos.foundations


def test_every_drawn_card_left_is_placed_and_the_next_player_draws():
    pos = st.deal(7)
    ends = [m for m in pos.legal_moves() if isinstance(m, EndTurn)]
    # 3 cards on 4 labelled rows, each row's cards in any order: 4 * 5 * 6 placements
    assert len(ends) == len(set(ends)) == 120
    after = pos.apply(EndTurn("U", ((c("JD"), 0), (c("5S"), 0), (c("4H"), 2))))
    assert after.rows == (cards("JD 5S"), (), cards("4H"), ())
    assert after.to_move == "D" and after.hand == cards("3C 4D TD") and len(after.stock) == 46
    with pytest.raises(IllegalMoveError, match=r"every card in hand \(4H 5S JD\) must be placed"):
        pos.apply(EndTurn("U", ((c("JD"), 0), (c("5S"), 0))))
    with pytest.raises(IllegalMoveError, match="no row 5"):
        pos.apply(EndTurn("U", ((c("JD"), 0), (c("5S"), 0), (c("4H"), 4))))


def test_end_phase_turns_are_plays_of_row_tops_and_a_pass():
    pos = position(rows=("2S", "KD", "", ""), u=("AS", "", "", ""), to_move="D")
    assert pos.end_phase and not pos.is_lost()
    assert {str(m) for m in pos.legal_moves()} == {"KD from row 2 -> D foundation 1 (empty)", "D ends turn"}
    passed = pos.apply(EndTurn("D"))
    assert passed.to_move == "U" and passed.rows == pos.rows
    assert "2S from row 1 -> U foundation 1 on AS" in {str(m) for m in passed.legal_moves()}
    with pytest.raises(IllegalMoveError, match=r"every card in hand \(nothing\)"):
        pos.apply(EndTurn("D", ((c("KD"), 0),)))


def test_lost_when_the_stock_is_empty_and_neither_player_can_play():
    stuck = position(rows=("5S", "", "", ""), u=("AS 2S", "", "", ""), d=("KS QS JS TS 9S 8S 7S", "", "", ""))
    assert stuck.is_lost() and not stuck.is_won()
    other_can = position(rows=("6S", "", "", ""), u=("AS 2S", "", "", ""), d=("KS QS JS TS 9S 8S 7S", "", "", ""))
    assert not other_can.is_lost()  # D can play it after U passes
    not_yet = position(rows=("5S", "", "", ""), stock="6S", u=("AS 2S", "", "", ""))
    assert not not_yet.is_lost()


def test_won_when_every_card_is_on_a_foundation():
    pos = position(hand="2S", u=("AS", "", "", ""), top_rank=2)
    won = pos.apply(Play("U", c("2S"), -1, 0, c("AS")))
    assert won.is_won() and won.legal_moves() == [] and not won.is_lost()
    with pytest.raises(IllegalMoveError, match="the game is won"):
        won.apply(EndTurn("U"))


# --- notation and turns -------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "8C from row 2 -> U foundation 3 on 7S", "KH from drawn -> D foundation 1 (empty)",
    "U ends turn", "D places QH on row 1, 5C on row 3",
])
def test_moves_read_back_from_their_notation(text):
    move = st.parse_move(text)
    assert str(move) == text and type(move).parse(text) == move


@pytest.mark.parametrize("text", ["8C to row 2", "U places QH on 1", "KH from drawn -> X foundation 1 (empty)"])
def test_bad_notation_is_refused(text):
    with pytest.raises(ParseError, match="is not"):
        st.parse_move(text)


def test_a_line_groups_into_turns_with_passes_shown():
    pos = position(rows=("2S", "KD", "", ""), hand="3S", stock="", u=("AS", "", "", ""), to_move="U", top_rank=13)
    line = [Play.parse("2S from row 1 -> U foundation 1 on AS"), Play.parse("3S from drawn -> U foundation 1 on 2S"),
            EndTurn("U"), EndTurn("D"), EndTurn("U"),
            Play.parse("KD from row 2 -> D foundation 1 (empty)")]
    turns = [t.to_json() for t in st.turns(pos, line)]
    assert turns == [
        {"player": "U", "drew": ["3S"], "plays": [{"card": "2S", "from": "row 1", "foundation": 1},
                                                 {"card": "3S", "from": "drawn", "foundation": 1}], "placed": []},
        {"player": "D", "plays": []}, {"player": "U", "plays": []},
        {"player": "D", "plays": [{"card": "KD", "from": "row 2", "foundation": 1}]},
    ]
    assert [str(t) for t in st.turns(pos, line)][1:3] == ["D passes", "U passes"]


# --- the reference search -------------------------------------------------------------------------


def test_reference_search_wins_and_loses_small_deals():
    # A..2 of spades: U draws both and plays them
    assert [str(m) for m in st.reference_solve(st.parse("AS 2S"))] == [
        "AS from drawn -> U foundation 1 (empty)", "2S from drawn -> U foundation 1 on AS"]
    # end phase, A..3 in two suits: the 2s on top need an ace or a 3 under them first
    lost = position(rows=("AH 3H 2H", "AS 3S 2S", "", ""), top_rank=3)
    assert lost.is_lost() and st.reference_solve(lost) is None
    won = position(rows=("2H 3S 2S", "AS 3H AH", "", ""), top_rank=3)
    line = st.reference_solve(won)
    assert not won.is_lost() and line is not None
    end = won
    for move in line:
        end = end.apply(move)
    assert end.is_won()


def test_explanations_place_cards_as_a_player_at_the_deal_sees_them():
    """A fresh deal's first three cards are U's draw of the turn in progress, not a hand held
    before it, and the next three are drawn in the next turn (D's): explain said '(hand)' and
    'drawn in turn 1 from now' of them."""
    deal = st.deal(5, rows=1)
    stock = shuffled_deck(5)
    assert where(deal, stock[0]) == f"{card_name(stock[0])} (drawn this turn, by U)"
    assert where(deal, stock[3]) == f"{card_name(stock[3])} (stock, drawn 1 turn after this one)"
    assert where(deal, stock[9]) == f"{card_name(stock[9])} (stock, drawn 3 turns after this one)"
