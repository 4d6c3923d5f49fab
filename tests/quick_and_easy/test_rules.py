"""The Game: Quick & Easy's reference rules, one test per rule of docs/games/quick-and-easy.md,
and its text format's error paths."""

from __future__ import annotations

import pytest

from puzzles import quick_and_easy as q
from puzzles.cards import shuffled
from puzzles.errors import IllegalMoveError, IllegalPositionError, ParseError
from puzzles.quick_and_easy import EndTurn, Play, Position, parse_card
from solver._native import shuffled as native_shuffled


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(name) for name in text.split())


def position(hands: list[str], draw: str = "", piles=("-", "-"), to_move=1, played=0, pro=False) -> Position:
    """A position from card names; the cards not named are on the piles' history (gone)."""
    tops = tuple(None if top == "-" else parse_card(top) for top in piles)
    pos = Position(tuple(cards(h) for h in hands), cards(draw), tops, to_move, played, pro)
    q.check_position(pos)
    return pos


def play(name: str, pile: str) -> Play:
    return Play(parse_card(name), q.PILES.index(pile))


# --- deals ---------------------------------------------------------------------------------------

def test_seeded_deal_is_pinned_and_matches_the_shared_shuffle():
    deal = q.deal(7, players=3)
    assert [" ".join(map(q.card_name, h)) for h in deal.hands] == ["4G 7Y", "10P 10G", "5Y 2Y"]
    deck = native_shuffled(7, 50)
    assert deck == shuffled(list(range(50)), 7) == [c for h in deal.hands for c in h] + list(deal.draw)
    assert deal.piles == (None, None) and deal.to_move is None and len(deal.draw) == 44


def test_cards_are_value_then_colour_in_either_case():
    assert q.card_name(parse_card("7r")) == "7R" and q.card_name(parse_card("10B")) == "10B"
    assert [q.card_name(c) for c in (0, 9, 10, 49)] == ["1R", "10R", "1Y", "10P"]


# --- playing -------------------------------------------------------------------------------------

def test_any_card_starts_an_empty_pile():
    pos = q.deal(7, players=3).start(1)  # player 1 holds 4G 7Y
    assert {str(m) for m in pos.legal_moves()} == {"4G on up", "4G on down", "7Y on up", "7Y on down"}


def test_ascending_takes_higher_and_descending_lower_values_only():
    pos = position(["5G 7Y"], "", piles=("6B", "6P"))
    assert set(map(str, pos.legal_moves())) == {"7Y on up", "5G on down"}


def test_the_colour_trick_works_on_either_pile_whatever_the_value():
    pos = position(["2B 9P"], "", piles=("6B", "6P"))
    assert set(map(str, pos.legal_moves())) == {"2B on up", "2B on down", "9P on up", "9P on down"}
    assert q.is_colour_trick(0, parse_card("6B"), parse_card("2B"))
    assert not q.is_colour_trick(0, parse_card("6B"), parse_card("9B"))


def test_one_or_two_cards_a_turn_on_one_pile_or_one_on_each():
    pos = position(["3R 8R"], "1Y 2Y 3Y", piles=("2G", "9G"))
    after_one = pos.apply(play("3R", "up"))
    assert EndTurn() in after_one.legal_moves() and play("8R", "up") in after_one.legal_moves()
    both_up = after_one.apply(play("8R", "up"))
    assert both_up.legal_moves() == [EndTurn()]  # no third card
    one_each = pos.apply(play("3R", "up")).apply(play("8R", "down"))
    assert one_each.piles == cards("3R 8R")


def test_a_turn_needs_one_card_before_it_can_end():
    pos = position(["3R 8R"], "1Y 2Y", piles=("2G", "9G"))
    assert EndTurn() not in pos.legal_moves()
    with pytest.raises(IllegalMoveError):
        pos.apply(EndTurn())


def test_the_professional_variant_plays_exactly_one_card():
    pos = position(["3R 8R"], "1Y 2Y", piles=("2G", "9G"), pro=True)
    assert pos.apply(play("3R", "up")).legal_moves() == [EndTurn()]


def test_the_turn_ends_by_drawing_back_to_two_while_the_draw_pile_lasts():
    pos = position(["3R 8R", "4R 5R"], "1Y 2Y 3Y", piles=("2G", "9G"))
    after = pos.apply(play("3R", "up")).apply(play("8R", "down")).apply(EndTurn())
    assert after.hands[0] == cards("1Y 2Y") and after.draw == cards("3Y") and after.to_move == 2
    short = position(["3R 8R", "4R 5R"], "1Y", piles=("2G", "9G")).apply(play("3R", "up"))
    short = short.apply(play("8R", "down")).apply(EndTurn())
    assert short.hands[0] == cards("1Y") and short.draw == ()


def test_without_a_draw_pile_play_goes_on_and_empty_hands_are_skipped():
    pos = position(["3R", "4R 5R", "6Y"], "", piles=("2G", "9G"))
    after = pos.apply(play("3R", "up")).apply(EndTurn())
    assert after.hands[0] == () and after.to_move == 2
    after = after.apply(play("4R", "up")).apply(play("5R", "up")).apply(EndTurn())
    assert after.to_move == 3
    after = after.apply(play("6Y", "up"))  # the last card wins at once
    assert after.is_won() and after.legal_moves() == []


def test_skipping_an_empty_hand_is_the_decision_that_wins_here():
    """Seed 002: "Το παιχνίδι λήγει άμεσα (και δυστυχώς είναι χαμένο) όταν ένας παίκτης του
    οποίου είναι η σειρά δε μπορεί να τοποθετήσει πλέον καμία κάρτα." (The game ends at once,
    and is lost, when a player whose turn it is can no longer place any card.) Read literally,
    player 1's empty hand on turn below would lose with 3P still held; the project skips it, as
    The Game does ("hij wordt overgeslagen"), and the last card is played. Player 2 cannot play
    both 3s in one turn (equal values), so only the skip wins."""
    pos = position(["10R", "3P 3G", "5P 1P"], "", piles=("1Y", "5B"))
    assert q.most_cards_played(pos)[0] == 50
    after = pos.apply(play("10R", "up")).apply(EndTurn())
    after = after.apply(play("3G", "down"))
    assert after.legal_moves() == [EndTurn()]  # 3P does not go under 3G
    after = after.apply(EndTurn())
    after = after.apply(play("1P", "down")).apply(play("5P", "down")).apply(EndTurn())  # 5P on 1P: colour
    assert after.hands[0] == () and after.to_move == 2
    assert after.apply(play("3P", "down")).is_won()


def test_the_game_is_lost_at_once_when_the_player_to_move_cannot_play():
    pos = position(["5R 6R", "7G 1B"], "", piles=("9Y", "2Y"), to_move=1)
    assert pos.legal_moves() == [] and pos.is_over() and not pos.is_won()
    # player 2 could play 1B on the descending pile, but the game is already over
    assert pos.start(2).legal_moves() == [play("1B", "down")]


def test_all_fifty_played_wins():
    deal = q.deal(3, players=1)
    assert not deal.is_won() and q.Position((), (), (None, None), 1).is_won() is True


# --- text ------------------------------------------------------------------------------------------

def test_deals_and_positions_format_and_parse_back():
    for players, pro in [(1, False), (3, True), (5, False)]:
        deal = q.deal(11, players=players, pro=pro)
        assert q.parse(q.format_position(deal)) == deal
    pos = q.deal(11, players=2).start(2).apply(q.deal(11, players=2).start(2).legal_moves()[0])
    assert q.parse(q.format_position(pos)) == pos


def test_move_notation_parses_back():
    for move in (play("10B", "up"), play("1r", "down"), EndTurn()):
        assert q.parse_move(str(move)) == move


BAD_TEXTS = [
    ("hand 1: 11R 3G\n", ParseError, "'11R' is not a card"),
    ("hand 1: 7X 3G\n", ParseError, "'7X' is not a card"),
    ("hand 1: 7R 7R\n", ParseError, "duplicate card 7R"),
    ("hand 1: 7R 3G 4G\n", ParseError, "hand 1 holds 3 cards; a hand holds at most 2"),
    ("hand 1: 7R 3G\n", IllegalPositionError, "a deal has all 50"),
    ("hand 1: 7R 3G\npiles: - 4B\n", ParseError, "a 'piles:' line belongs to a position mid-game"),
    ("hand 1: 7R 3G\ndraw: -\nto-move: 1\n", ParseError, "needs a 'piles: - 4B"),
    ("hand 1: 7R 3G\ndraw: -\npiles: 4B\nto-move: 1\n", ParseError, "piles needs 2 tops"),
    ("hand 1: 7R 3G\ndraw: -\npiles: 4B 7R\nto-move: 1\n", ParseError, "duplicate card 7R"),
    ("variant: expert\nhand 1: 7R\n", ParseError, "the known variant is pro"),
]


@pytest.mark.parametrize("text, error, message", BAD_TEXTS)
def test_bad_text_is_refused_with_a_clear_message(text, error, message):
    with pytest.raises(error, match=message):
        q.parse(text)


def test_a_hand_count_that_disagrees_with_players_is_refused_counting_right():
    with pytest.raises(ParseError, match="^1 hand line but --players 2$"):
        q.parse("hand 1: 7R 3G\n", players=2)


def test_positions_must_be_plausible():
    with pytest.raises(IllegalPositionError, match="both piles are empty"):
        position(["7R 3G"], "", piles=("-", "-"))
    with pytest.raises(IllegalPositionError, match="hand 2 holds 1 card; with 1 left to draw it must hold exactly 2"):
        position(["7R 3G", "1Y"], "5P", piles=("4B", "-"))
    with pytest.raises(IllegalPositionError, match="2 cards played this turn; a turn plays 1 \\(pro\\)"):
        position(["7R"], "", piles=("4B", "5B"), played=2, pro=True)
    with pytest.raises(IllegalPositionError, match="player 1 is to move with no cards"):
        position(["", "1Y"], "", piles=("4B", "-"))
    with pytest.raises(IllegalPositionError, match="6 players"):
        q.deal(1, players=6)
