"""The Game: Extreme's reference rules: one test per instruction binding of
docs/games/the-game-extreme.md, the seeded deal, and the text format's error paths."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from puzzles import the_game as g
from puzzles import the_game_extreme as x
from puzzles.errors import IllegalPositionError, ParseError
from puzzles.the_game import EndTurn, Play

UP1, UP2, DOWN1, DOWN2 = range(4)


def position(hands, draw=(), piles=(1, 1, 100, 100), marks=None, played=0, expert=False, hand_size=None, **turn):
    hands = tuple(tuple(h) for h in hands)
    size = hand_size or g.standard_hand_size(len(hands))
    pos = x.Position(hands, tuple(draw), tuple(piles), 1, played, expert, size, 99,
                     tuple(sorted((marks or {}).items())), **turn)
    return pos


def plays(pos):
    return {(m.card, m.pile) for m in pos.legal_moves() if isinstance(m, Play)}


def test_seeded_deal_is_the_game_deal_with_four_of_each_instruction_continuing_the_generator():
    for players in (1, 3):
        deal, cards = x.deal(5, players), g.deal(5, players)
        assert deal.hands == cards.hands and deal.draw == cards.draw
        kinds = [k for _, k in deal.marks]
        assert all(kinds.count(k) == 4 for k in x.KINDS) and len(kinds) == 28
    assert [c for c, k in x.deal(1).marks if k == "stop"] == [18, 45, 55, 67]
    assert x.deal(1).marks == x.deal(1, players=4).marks
    assert x.parse(x.format_position(x.deal(9, 2))) == x.deal(9, 2)


def test_stop_ends_the_turn_at_once_even_as_the_first_card_and_below_the_minimum():
    pos = position([(45, 50, 60, 70, 80, 90, 91, 92)], draw=(2, 3, 4), marks={45: "stop"})
    after = pos.apply(Play(45, UP1))
    assert after.legal_moves() == [EndTurn()]
    after = after.apply(EndTurn())
    assert sorted(after.hand) == [2, 50, 60, 70, 80, 90, 91, 92]
    stop_only = position([(45,)], draw=(2,), piles=(40, 96, 5, 6), marks={45: "stop"}, hand_size=1)
    assert not stop_only.is_over() and stop_only.legal_moves() == [Play(45, UP1)]


def test_a_play_names_its_cards_instruction_and_parses_back_equal_to_the_bare_play():
    pos = position([(45, 50, 60, 70, 80, 90, 91, 92)], draw=(2, 3, 4), marks={45: "stop"})
    marked = next(m for m in pos.legal_moves() if isinstance(m, Play) and m.card == 45)
    assert str(marked) == "45!stop on up1" and marked.to_json()["instruction"] == "stop"
    assert x.parse_move(str(marked)) == marked == Play(45, UP1)
    assert x.parse_move(str(marked)).instruction == "stop"
    assert str(next(m for m in pos.legal_moves() if m == Play(50, UP1))) == "50 on up1"


def test_expert_combines_a_stop_opens_a_turn_below_three():
    pos = position([(45, 50, 60, 70, 80, 90, 91, 92)], draw=(2,), marks={45: "stop"}, expert=True)
    assert pos.apply(Play(45, UP1)).legal_moves() == [EndTurn()]
    assert EndTurn() not in pos.apply(Play(50, UP1)).apply(Play(60, UP1)).legal_moves()


def test_a_skull_must_be_covered_in_the_same_turn_and_an_uncoverable_skull_is_illegal():
    pos = position([(72, 73, 2)], draw=(), piles=(70, 71, 5, 6), marks={72: "skull"}, hand_size=3)
    assert (72, UP1) in plays(pos)
    after = pos.apply(Play(72, UP1))
    assert EndTurn() not in after.legal_moves()
    assert Play(73, UP1) in after.legal_moves() and Play(73, UP2) not in after.legal_moves()
    lonely = position([(72,)], draw=(), piles=(70, 71, 5, 6), marks={72: "skull"}, hand_size=1)
    assert (72, UP1) not in plays(lonely) and lonely.is_over()


def test_three_means_exactly_three_cards_and_a_stop_only_as_the_third():
    pos = position([(13, 20, 30, 40, 45, 50, 60, 70)], draw=(2, 3), marks={13: "three", 45: "stop"})
    after = pos.apply(Play(13, UP1)).apply(Play(20, UP1))
    assert (45, UP1) not in plays(pos.apply(Play(13, UP1)))
    assert EndTurn() not in after.legal_moves()
    third = after.apply(Play(30, UP1))
    assert third.legal_moves() == [EndTurn()]
    assert after.apply(Play(45, UP1)).legal_moves() == [EndTurn()]
    four = pos.apply(Play(20, UP1)).apply(Play(30, UP1)).apply(Play(40, UP1))
    assert (13, UP2) not in plays(four)
    short = position([(13, 20)], draw=(), piles=(1, 1, 100, 100), marks={13: "three"}, hand_size=2)
    assert (13, UP1) not in plays(short) and (20, UP1) in plays(short)


def test_the_seeds_example_of_a_three_a_number_first_and_a_stop_third():
    """Seed 001: "Tim speelt eerst een normale getallenkaart, daarna de "3!"-kaart en ten slotte
    een stopkaart. Hij heeft nu zoals opgedragen drie kaarten gespeeld en trekt weer drie kaarten
    om zijn hand aan te vullen." (Tim plays a number card first, then the three, then a stop: three
    cards as the three orders, and he draws three to fill his hand.) The three counts itself, so
    a three played second leaves one card to play; a stop may end the turn there and nowhere
    earlier."""
    pos = position([(10, 13, 45, 50, 60, 70, 80, 90)], draw=(2, 3, 4, 5), marks={13: "three", 45: "stop"})
    second = pos.apply(Play(10, UP1)).apply(Play(13, UP1))
    assert EndTurn() not in second.legal_moves() and (45, UP1) in plays(second)
    third = second.apply(Play(45, UP1))
    assert third.legal_moves() == [EndTurn()] and third.drawn() == (2, 3, 4)
    assert sorted(third.apply(EndTurn()).hand) == [2, 3, 4, 50, 60, 70, 80, 90]
    assert (45, UP1) not in plays(pos.apply(Play(13, UP1)))  # a stop as the second card with a three


def test_three_overrides_the_minimum_of_one_once_the_draw_pile_is_empty():
    pos = position([(13, 20, 30, 40)], draw=(), marks={13: "three"}, hand_size=4)
    assert EndTurn() in pos.apply(Play(20, UP1)).legal_moves()
    assert EndTurn() not in pos.apply(Play(13, UP1)).legal_moves()


def test_same_pile_binds_every_card_while_visible_and_covering_lifts_it():
    pos = position([(61, 62, 63, 50, 95, 94, 93, 92)], draw=(2, 3), marks={61: "same-pile"})
    after = pos.apply(Play(61, UP1))
    assert {p for _, p in plays(after)} == {UP1}
    covered = after.apply(Play(62, UP1))
    assert {p for _, p in plays(covered)} == {UP1, UP2, DOWN1, DOWN2}
    mixed = pos.apply(Play(50, UP2))
    assert (61, UP1) not in plays(mixed) and (61, UP2) in plays(mixed)
    on_top = position([(70, 80, 90, 95, 2, 3, 4, 5)], draw=(6,), piles=(61, 1, 100, 100), marks={61: "same-pile"})
    first = on_top.apply(Play(95, DOWN1))
    assert {p for _, p in plays(first)} == {DOWN1}


def test_draw_one_draws_exactly_one_while_visible_and_refills_once_covered():
    pos = position([(9, 20, 30, 40, 50, 60, 70, 80)], draw=(2, 3, 4, 5), marks={9: "draw-one"})
    after = pos.apply(Play(9, UP1)).apply(Play(20, UP2))
    assert after.drawn() == (2,)
    short = after.apply(EndTurn())
    assert len(short.hand) == 7
    refill = short.apply(Play(30, UP1)).apply(Play(40, UP1)).apply(EndTurn())
    assert len(refill.hand) == 8


def test_no_backwards_forbids_every_backwards_trick_while_visible():
    pos = position([(20, 85, 40, 41, 42, 43, 44, 45)], draw=(2, 3), piles=(30, 1, 75, 100), marks={30: "no-backwards"})
    assert (20, UP1) not in plays(pos) and (85, DOWN1) not in plays(pos)
    free = position([(20, 85, 40, 41, 42, 43, 44, 45)], draw=(2, 3), piles=(30, 1, 75, 100))
    assert (20, UP1) in plays(free) and (85, DOWN1) in plays(free)


def test_no_talk_is_inert():
    hand = [(88, 20, 30, 40, 50, 60, 70, 80)]
    assert position(hand, (2, 3), marks={88: "no-talk"}).legal_moves() == position(hand, (2, 3)).legal_moves()


def test_exhaustive_search_wins_loses_by_skull_and_leaves_cards():
    win = x.Position(((2, 3, 4),), (5,), (1, 1, 7, 7), 1, 0, False, 3, 6, ((3, "stop"),))
    left, line = x.fewest_cards_left(win)
    assert left == 0
    assert x.replay(win, [x.parse_move(str(m)) for m in line]).is_won()
    skulls = x.Position(((2, 3),), (), (1, 1, 4, 4), 1, 0, False, 2, 3, ((2, "skull"), (3, "skull")))
    assert x.fewest_cards_left(skulls)[0] == 2 and x.fewest_cards_left(replace(skulls, marks=()))[0] == 0


@pytest.mark.parametrize("text, error, words", [
    ("hand 1: 2!bogus 3\ndraw: -\ncards: 2-3\nhand-size: 2", ParseError, "unknown instruction"),
    ("hand 1: 2! 3\ndraw: -\ncards: 2-3\nhand-size: 2", ParseError, "unknown instruction ''"),
    ("hand 1: 2!stop 3\ndraw: 4 2!stop\ncards: 2-4\nhand-size: 2", ParseError, "marked twice"),
    # a line given twice is named so, as in The Game, not as its marked cards marked twice
    ("hand 1: 2!stop 3\ndraw: 4\nHand 1: 2!stop 3\ncards: 2-4\nhand-size: 2", ParseError,
     "^line 3: a second 'hand 1' line \\(first on line 1\\)$"),
    ("hand 1: 2 3\ndraw: -\nthis-turn: up1\nthis-turn: up2\ncards: 2-3", ParseError,
     "^line 4: a second 'this-turn' line \\(first on line 3\\)$"),
    ("hand 1: 2!skull 3!skull 4!skull 5!skull 6!skull\ndraw: -\ncards: 2-6\nhand-size: 5", IllegalPositionError, "5 cards carry skull"),
    ("hand 1: 2 3\ndraw: -\ncards: 2-3\nhand-size: 2", IllegalPositionError, "shows 0 instructions; a deck 2..3 has 2"),
    # the lines an unknown one is told to be include Extreme's own (it named The Game's alone)
    ("hand 1: 2 3\nthree: 1\ncards: 2-3", ParseError, "one of draw, .*, hand-size, this-turn$"),
    ("hand 1: 2 3\nthree\ncards: 2-3", ParseError, r"\(hand 1, draw, .*, hand-size, this-turn\)$"),
])
def test_bad_input_names_the_problem(text, error, words):
    with pytest.raises(error, match=words):
        x.parse(text)


def test_a_position_mid_turn_round_trips_with_marked_pile_tops_and_its_turn_state():
    start = x.Position(((13, 20, 30, 40), (50, 60, 70, 80)), (2, 3), (1, 1, 100, 100), 1, 0, False, 4, 99,
                       ((13, "three"), (20, "same-pile")))
    pos = start.apply(Play(13, UP1)).apply(Play(20, UP1))
    text = x.format_position(pos)
    assert "this-turn: up1 three" in text and "piles: 20!same-pile 1 100 100" in text
    assert x.format_position(x.parse(text)) == text  # the three under 20 is hidden now


def late_start_of_turn(seed: int = 3) -> x.Position:
    """A 2-player position at the start of a turn, the draw pile not yet used up: random play
    from a reduced deal, each turn ended as soon as it may be."""
    position, rng = x.deal(seed, players=2, top=30).start(1), random.Random(1)
    for _ in range(6):
        position = position.apply(rng.choice(position.legal_moves()))
    while position.played:
        ends = [move for move in position.legal_moves() if isinstance(move, EndTurn)]
        position = position.apply(ends[0] if ends else position.legal_moves()[0])
    assert position.draw
    return position


def test_a_hand_left_empty_while_the_draw_pile_lasts_is_refused():
    """Hands may be short (draw-one draws one card) but a turn always draws one while any are
    left, so only the mover, mid-turn, can hold none: an empty hand 2 was accepted."""
    position = late_start_of_turn()
    other = 3 - position.to_move
    hands = list(position.hands)
    emptied = replace(position, hands=(*hands[:other - 1], (), *hands[other:]), draw=position.draw + hands[other - 1])
    with pytest.raises(IllegalPositionError, match=f"^hand {other} is empty with {len(emptied.draw)} left to draw"):
        x.check_position(emptied)


def test_a_hand_too_full_is_told_its_most_not_an_exact_size():
    """Extreme's hands may be short, so the bound a hand breaks is 'at most' (it said 'exactly')."""
    position = late_start_of_turn()
    other = 3 - position.to_move
    hands = list(position.hands)
    grown = hands[other - 1] + position.draw[:position.hand_size + 1 - len(hands[other - 1])]
    overfull = replace(position, hands=(*hands[:other - 1], grown, *hands[other:]),
                       draw=position.draw[len(grown) - len(hands[other - 1]):])
    with pytest.raises(IllegalPositionError, match=f"must hold at most {position.hand_size}$"):
        x.check_position(overfull)
