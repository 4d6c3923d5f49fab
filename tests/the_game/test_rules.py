"""The Game's reference rules, one test per rule of docs/games/the-game.md, and its text format's error paths."""

from __future__ import annotations

import pytest

from puzzles import the_game as g
from puzzles.cards import shuffled
from puzzles.errors import IllegalMoveError, IllegalPositionError, ParseError
from puzzles.the_game import EndTurn, Play, Position
from solver._native import shuffled as native_shuffled


def position(hands, draw=(), piles=(1, 1, 100, 100), to_move=1, played=0, expert=False, hand_size=None, top=99):
    hands = tuple(tuple(h) for h in hands)
    size = hand_size or g.standard_hand_size(len(hands))
    pos = Position(hands, tuple(draw), tuple(piles), to_move, played, expert, size, top)
    g.check_position(pos)
    return pos


# --- deals -------------------------------------------------------------------------------------

def test_seeded_deal_is_pinned_and_matches_the_shared_shuffle():
    deal = g.deal(7, players=2)
    assert deal.hands == ((65, 95, 22, 72, 74, 89, 47), (99, 58, 91, 25, 75, 40, 77))
    assert deal.draw[:5] == (16, 17, 90, 62, 46) and len(deal.draw) == 98 - 14
    deck = [c + 2 for c in native_shuffled(7, 98)]
    assert deck == shuffled(list(range(2, 100)), 7) == [c for h in deal.hands for c in h] + list(deal.draw)
    assert deal.piles == (1, 1, 100, 100) and deal.to_move is None


@pytest.mark.parametrize("players, size", [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_hand_sizes_per_player_count_and_smaller_hand(players, size):
    assert [len(h) for h in g.deal(3, players=players).hands] == [size] * players
    assert [len(h) for h in g.deal(3, players=players, smaller_hand=True).hands] == [size - 1] * players


def test_player_count_outside_one_to_five_is_refused():
    with pytest.raises(IllegalPositionError, match="6 players"):
        g.deal(1, players=6)


def test_reduced_deck_deal():
    deal = g.deal(3, top=14, hand_size=3)
    assert sorted(deal.hands[0] + deal.draw) == list(range(2, 15)) and deal.piles == (1, 1, 15, 15)


# --- plays ---------------------------------------------------------------------------------------

def test_ascending_takes_higher_or_exactly_ten_lower():
    assert g.accepts(0, 30, 31) and g.accepts(1, 30, 99) and g.accepts(0, 30, 20)
    assert not g.accepts(0, 30, 30) and not g.accepts(0, 30, 29) and not g.accepts(0, 30, 21)
    assert g.is_backwards(0, 30, 20) and not g.is_backwards(0, 30, 40)


def test_descending_takes_lower_or_exactly_ten_higher():
    assert g.accepts(2, 50, 49) and g.accepts(3, 50, 2) and g.accepts(2, 50, 60)
    assert not g.accepts(2, 50, 51) and not g.accepts(3, 50, 59)
    assert g.is_backwards(3, 50, 60)


def test_minimum_two_then_one_when_the_draw_pile_is_empty_and_three_for_experts():
    deal = g.deal(1)
    assert deal.start(1).minimum == 2
    assert g.deal(1, expert=True).start(1).minimum == 3
    late = position([(40, 60)], piles=(30, 31, 70, 71))
    assert late.minimum == 1
    assert position([(40, 60)], piles=(30, 31, 70, 71), expert=True).minimum == 1


def test_end_turn_only_after_the_minimum():
    pos = g.deal(1).start(1)
    assert EndTurn() not in pos.legal_moves()
    pos = pos.apply(pos.legal_moves()[0])
    assert EndTurn() not in pos.legal_moves()
    pos = pos.apply(pos.legal_moves()[0])
    assert EndTurn() in pos.legal_moves()


def test_end_turn_draws_back_up_to_the_hand_size_in_draw_order():
    pos = g.deal(1).start(1)
    first, second = pos.hand[:2]
    pos = pos.apply(Play(first, 0)).apply(Play(second, 2 if second < 100 else 3))
    drawn = pos.draw[:2]
    after = pos.apply(EndTurn())
    assert after.hand == pos.hand + drawn and after.draw == pos.draw[2:] and after.played == 0


def test_a_play_that_makes_the_minimum_impossible_is_illegal():
    # Only up1 (at 60) takes anything: 61 then 62 is a turn, but 62 first leaves 61 nowhere.
    hand = (61, 62, 20, 21, 22, 23, 24, 25)
    draw = [c for c in range(5, 98) if c not in hand + (60,)]
    pos = position([hand], draw=draw, piles=(60, 98, 3, 4))
    assert pos.legal_moves() == [Play(61, 0)]
    with pytest.raises(IllegalMoveError, match="62 on up1"):
        pos.apply(Play(62, 0))


def test_game_ends_when_the_player_to_move_cannot_play_the_minimum():
    # Draw pile left, two needed, only one card fits: the game is over with 8 + 1 cards left.
    hand = (50, 51, 52, 53, 54, 55, 56, 97)
    draw = (58,)
    pos = Position((hand,), draw, (96, 98, 3, 4), 1, 0, False, 8, 99)
    assert not pos.legal_moves() and pos.is_over() and not pos.is_won() and pos.cards_left == 9


def test_all_cards_played_ends_the_game_at_once():
    pos = position([(50,)], piles=(40, 41, 70, 71))
    after = pos.apply(Play(50, 0))
    assert after.is_won() and after.is_over() and after.legal_moves() == [] and after.cards_left == 0


def test_players_with_no_cards_are_skipped():
    # Player 2 is out of cards; after player 1's turn, player 3 moves.
    pos = position([(40,), (), (60,)], piles=(30, 31, 70, 71), hand_size=6)
    after = pos.apply(Play(40, 0)).apply(EndTurn())
    assert after.to_move == 3
    # A player whose hand emptied still ends the turn, then the next player with cards moves.
    pos = position([(40,), (), (60,)], piles=(30, 31, 70, 71), to_move=3, hand_size=6)
    assert pos.apply(Play(60, 0)).legal_moves() == [EndTurn()]
    assert pos.apply(Play(60, 0)).apply(EndTurn()).to_move == 1


def test_a_deal_needs_a_starter_and_every_player_may_start():
    deal = g.deal(2, players=3)
    with pytest.raises(IllegalPositionError, match="choose a starter"):
        deal.legal_moves()
    assert [deal.start(p).to_move for p in (1, 2, 3)] == [1, 2, 3]
    with pytest.raises(IllegalPositionError, match="player 4"):
        deal.start(4)


# --- moves' notation ---------------------------------------------------------------------------

@pytest.mark.parametrize("move", [Play(45, 0), Play(2, 3), Play(99, 2), EndTurn()])
def test_move_notation_parses_back(move):
    assert type(move).parse(str(move)) == move == g.parse_move(str(move))


@pytest.mark.parametrize("text", ["45 up1", "45 on up3", "x on up1", "end"])
def test_bad_move_notation(text):
    with pytest.raises(ParseError, match="is not"):
        g.parse_move(text)


# --- text format -------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [{}, {"players": 3}, {"players": 2, "expert": True, "smaller_hand": True},
                                    {"top": 20, "hand_size": 3}])
def test_deals_format_and_parse_back(kwargs):
    deal = g.deal(11, **kwargs)
    assert g.parse(g.format_position(deal)) == deal


def test_a_position_mid_game_formats_and_parses_back():
    pos = g.deal(5, players=2, expert=True).start(2)
    for _ in range(4):
        pos = pos.apply(pos.legal_moves()[0])
    text = g.format_position(pos)
    assert "piles: " in text and "to-move: " in text and "played: " in text and "variant: expert" in text
    assert g.parse(text) == pos


def test_variant_options_apply_to_text_without_variant_lines():
    text = g.format_position(g.deal(4, players=2, smaller_hand=True)).replace("hand-size: 6\n", "")
    parsed = g.parse(text, players=2, expert=True, smaller_hand=True)
    assert parsed.expert and parsed.hand_size == 6
    with pytest.raises(ParseError, match="^2 hand lines but --players 3$"):
        g.parse(text, players=3)
    with pytest.raises(ParseError, match="^1 hand line but --players 2$"):
        g.parse(text.replace("hand 2:", "# hand 2:"), players=2)


BAD_TEXTS = [
    ("hand 1: 2 3 x 5 6 7 8 9\n", ParseError, "'x' in hand 1 is not a number"),
    ("hand 1: 2 3 4 5 6 7 8 2\n", ParseError, "duplicate card 2"),
    ("hand 2: 2 3 4 5 6 7 8 9\n", ParseError, "no 'hand 1:' line"),
    ("draw: 2 3\n", ParseError, "no 'hand 1:' line"),
    ("hand 1: 2 3\nfoo: 1\n", ParseError, "unknown line 'foo'"),
    ("hand 1: 2\nhand 1: 3\n", ParseError, "a second 'hand 1' line"),
    ("just text\n", ParseError, "not a 'name: value' line"),
    ("variant: wild\nhand 1: 2\n", ParseError, "known variants"),
    ("variant: expert expert\nhand 1: 2\n", ParseError, "^line 1: variant 'expert expert' names expert twice$"),
    ("cards: 3-20\nhand 1: 2\n", ParseError, "range 2-N"),
    ("hand 1: 2 3 4\ndraw: -\npiles: 1 1 100\nto-move: 1\n", ParseError, "piles needs 4 numbers"),
    ("hand 1: 2 3 4\npiles: 1 1 100 100\n", ParseError, "line 2: a 'piles:' line belongs to a position mid-game"),
    ("hand 1: 2 3 4\nplayed: 0\n", ParseError, "line 2: a 'played:' line belongs to a position mid-game"),
    ("hand 1: 2 3 4\npiles: 5 1 100 100\nto-move: 1\n", ParseError, "needs a 'draw: 12 88"),
    ("hand 1: 2 3 4\ndraw: -\nto-move: 1\n", ParseError, "needs a 'piles: 1 1 100 100"),
    ("hand 1: 100 3 4 5 6 7 8 9\n", ParseError, "^line 1: card 100 is not in the deck 2..99$"),
    ("cards: 2-30\nhand 1: 2 3\ndraw: 4 31\n", ParseError, "^line 3: card 31 is not in the deck 2..30$"),
    ("cards: 2-300\nhand 1: 2\n", ParseError, "^line 1: highest card 300"),
    ("hand 1: 2 3 4\ndraw: " + " ".join(map(str, range(5, 100))) + "\n", IllegalPositionError,
     "hand 1 holds 3 cards; a deal gives it 8"),
    ("hand 1: 2 3 4 5 6 7 8 9\n", IllegalPositionError, "90 cards of 2..99 missing; a deal has them all"),
]


@pytest.mark.parametrize("text, error, message", BAD_TEXTS)
def test_bad_text_is_refused_with_a_clear_message(text, error, message):
    with pytest.raises(error, match=message):
        g.parse(text)


def test_parse_errors_name_their_line():
    with pytest.raises(ParseError, match="line 2: duplicate card 5 \\(also on line 1\\)"):
        g.parse("hand 1: 5 6\ndraw: 5\n")


def late_text(piles, to_move="1", played="0", hand="40 60"):
    """A position late in a solo game: only `hand` left, the draw pile empty."""
    return f"hand 1: {hand}\ndraw: -\npiles: {piles}\nto-move: {to_move}\nplayed: {played}\n"


@pytest.mark.parametrize("piles, to_move, played, hand, message", [
    ("30 31 70 40", "1", "0", "40 60", "shows 40, which is still in a hand"),
    ("30 30 70 71", "1", "0", "40 60", "two piles show the same card"),
    ("1 1 100 100", "1", "0", "40 60", "every pile is at its start"),
    ("30 31 70 71", "2", "0", "40 60", "there are players 1 to 1"),
])
def test_implausible_positions_are_refused(piles, to_move, played, hand, message):
    text = late_text(piles, to_move, played, hand)
    with pytest.raises(IllegalPositionError, match=message):
        g.parse(text)


def test_the_player_to_move_must_hold_cards_at_the_start_of_a_turn():
    text = "hand 1: -\nhand 2: 40 60\ndraw: -\npiles: 30 31 70 71\nto-move: 1\nplayed: 0\n"
    with pytest.raises(IllegalPositionError, match="player 1 is to move with no cards"):
        g.parse(text)


def test_more_cards_played_this_turn_than_a_hand_holds_says_so():
    """It was named by the hands first: 'hand 1 holds 0 cards; ... it must hold exactly -2'."""
    text = ("cards: 2-20\nhand-size: 2\nhand 1: -\nhand 2: -\ndraw: 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
            "piles: 18 19 20 2\nto-move: 1\nplayed: 4\n")
    with pytest.raises(IllegalPositionError, match="^4 cards played this turn from a hand of 2$"):
        g.parse(text)


def test_hand_sizes_must_match_the_draw_pile():
    deal = g.deal(9, players=2).start(1)
    pos = deal.apply(deal.legal_moves()[0])
    text = g.format_position(pos).replace("played: 1", "played: 0")
    with pytest.raises(IllegalPositionError, match="hand 1 holds 6 cards; with 84 left to draw it must hold exactly 7"):
        g.parse(text)


def test_a_half_played_turn_that_cannot_be_completed_is_refused():
    # One of two cards played; nothing in hand fits any pile.
    hand = tuple(range(20, 27))
    draw = [c for c in range(5, 98) if c not in hand + (60,)]
    text = f"hand 1: {' '.join(map(str, hand))}\ndraw: {' '.join(map(str, draw))}\npiles: 60 98 3 4\nto-move: 1\nplayed: 1\n"
    with pytest.raises(IllegalPositionError, match="cannot play the rest"):
        g.parse(text)


# --- the reference search -----------------------------------------------------------------------

def test_reference_search_small_known_results():
    # Piles far apart: 40 and 60 both fit, one turn each; a win.
    assert g.fewest_cards_left(position([(40, 60)], piles=(30, 31, 70, 71)))[0] == 0
    # Nothing fits: both cards stay.
    assert g.fewest_cards_left(position([(40, 60)], piles=(90, 91, 20, 21)))[0] == 2
    # The backwards trick 80 -> 70 reopens the ascending pile for 75.
    pos = position([(70, 75)], piles=(80, 98, 20, 21))
    value, line = g.fewest_cards_left(pos)
    assert value == 0 and str(line[0]) == "70 on up1"
    assert g.replay(pos, line).is_won()
