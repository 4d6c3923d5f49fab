"""Etalage's reference rules: one test per rule of docs/games/etalage.md, the seed's worked
example with its exact outcome, the text format and its errors, and the plain search."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from puzzles import etalage as e
from puzzles.cards import shuffled
from puzzles.errors import IllegalMoveError, IllegalPositionError, ParseError
from puzzles.etalage import Pick, Play, Position
from solver._native import shuffled as native_shuffled
from tests.conftest import random_walk


def cards(text: str) -> tuple[int, ...]:
    return tuple(e.parse_card(t) for t in text.split())


def position(display, hands, scores=None, leader=1, trick="", values=10, picked=0) -> Position:
    """A checked position; `scores` defaults to player 1 holding every taken card's points."""
    hands = tuple(cards(h) for h in hands)
    players = len(hands)
    pos = Position(cards(display), hands, (0,) * players, leader, cards(trick), picked, values)
    if scores is None:
        taken = set(e.deck(players, values)) - set(pos.display) - set(pos.trick) - {c for h in hands for c in h}
        scores = (sum(map(e.value_of, taken)),) + (0,) * (players - 1)
    pos = Position(pos.display, hands, tuple(scores), leader, pos.trick, picked, values)
    e.check_position(pos)
    return pos


def play(pos: Position, *moves: str) -> Position:
    for move in moves:
        pos = pos.apply(e.parse_move(move))
    return pos


# --- cards and deals ---------------------------------------------------------------------------

def test_card_notation_round_trips_and_bad_cards_are_refused():
    assert [e.card_name(c) for c in cards("7R 10G 1O 3y")] == ["7R", "10G", "1O", "3Y"]
    for bad in ("11R", "0R", "7X", "R7", "7", ""):
        with pytest.raises(ParseError, match="is not a card"):
            e.parse_card(bad)


def test_seeded_deal_lays_out_the_display_then_nine_cards_each_from_the_shared_shuffle():
    deal = e.deal(7, players=4)
    deck = shuffled(e.deck(4), 7)
    assert [e.deck(4)[i] for i in native_shuffled(7, 40)] == deck
    assert deal.display == tuple(deck[:4])
    assert deal.hands == tuple(tuple(deck[4 + 9 * p:13 + 9 * p]) for p in range(4))
    assert e.format_position(deal).splitlines()[:2] == ["display: 2G 7G 8G 3G", "hand 1: 2B 4B 10G 5Y 8Y 8B 3R 6G 9R"]
    assert deal.leader == 1 and deal.to_move == 1 and deal.scores == (0, 0, 0, 0)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_first_p_colours_are_in_play(players):
    deal = e.deal(1, players=players)
    every = sorted(deal.display + tuple(c for h in deal.hands for c in h))
    assert every == e.deck(players) and {e.colour_of(c) for c in every} == set(range(players))


def test_player_counts_outside_three_to_six_are_refused():
    for players in (2, 7):
        with pytest.raises(IllegalPositionError, match=f"{players} players"):
            e.deal(1, players=players)


# --- a trick and its distribution ------------------------------------------------------------------

def worked_example() -> Position:
    """The seed's example: Anna..Frank are players 1..6, Anna leads; the display holds yellow 7
    and 4, red 8 and 1, green 6 and blue 4. Each player keeps one more card for a next trick."""
    return position(
        "7Y 4Y 8R 1R 6G 4B",
        ["7G 3O", "2G 5O", "9Y 1P", "5R 2P", "10B 3P", "6R 4P"],
    )


def test_the_seeds_worked_example_has_exactly_its_outcome():
    start = worked_example()
    trick = play(start, "7G", "2G", "9Y", "5R", "10B", "6R")
    assert trick.distributing and trick.order == (6, 4, 5)  # reds 11 (Frank 6, Dora 5), blue 10; 9 ties 9
    assert trick.to_move == 6 and set(trick.legal_moves()) == {Pick(c) for c in range(4)}
    after = play(trick, "pick Y", "pick R", "pick G")
    gained = [a - b for a, b in zip(after.scores, start.scores)]
    assert gained == [0, 0, 0, 9, 6, 11]  # Dora red 8+1, Emiel green 6, Frank yellow 7+4
    assert after.display == cards("4B 7G 2G 9Y 5R 10B 6R")
    assert after.trick == () and after.leader == 6 and after.to_move == 6


def test_a_colours_strength_is_the_sum_of_its_cards_then_the_highest_card_picks_first():
    order = e.pick_order(cards("3R 9G 4R 2Y"), 1, 4)
    assert order == (2, 3, 1, 4)  # green 9 beats red 7 (4R before 3R); yellow 2 last
    assert e.pick_order(cards("3R 9G 4R 2Y"), 3, 4) == (4, 1, 3, 2)  # the same cards led by player 3


def test_when_the_two_strongest_colours_tie_nobody_picks_and_the_same_player_leads_again():
    assert e.pick_order(cards("5R 5G 9Y"), 1, 3) == (3,)  # the tie is below yellow
    assert e.pick_order(cards("5R 2G 3G"), 1, 3) == ()
    start = position("1R 1Y 1G", ["5R 2R", "2G 2Y", "3G 3Y"], leader=2)
    after = play(start, "2G", "3G", "5R")
    assert after.trick == () and after.leader == 2 and after.display == cards("1R 1Y 1G 2G 3G 5R")
    assert after.scores == start.scores


def test_a_tie_lower_down_stops_the_distribution_there():
    assert e.pick_order(cards("9R 2G 2Y 1B"), 1, 4) == (1,)


def test_picks_are_compulsory_while_the_display_holds_cards():
    pos = play(position("1R 1Y 1G", ["5R 2R", "2G 2Y", "3G 3Y"]), "5R", "2G", "3Y")
    assert pos.order == (1, 3, 2) and set(pos.legal_moves()) == {Pick(0), Pick(1), Pick(2)}
    with pytest.raises(IllegalMoveError):
        pos.apply(Play(e.parse_card("2R")))


def test_a_player_whose_turn_to_pick_finds_the_display_empty_takes_nothing():
    start = position("4R 1R 6R", ["5R 2G", "2R 3G", "3R 9G"])
    pos = play(start, "5R", "2R", "3R")
    assert pos.order == (1, 3, 2) and pos.legal_moves() == [Pick(0)]
    after = play(pos, "pick R")
    assert after.scores == (start.scores[0] + 11, 0, 0) and not after.distributing  # players 3 and 2 take nothing
    assert after.leader == 1 and after.display == cards("5R 2R 3R")


def test_a_pick_of_a_colour_not_in_the_display_is_illegal():
    pos = play(worked_example(), "7G", "2G", "9Y", "5R", "10B", "6R")
    with pytest.raises(IllegalMoveError, match="pick P"):
        pos.apply(Pick(4))


def test_the_game_ends_after_the_last_tricks_distribution():
    rng = random.Random(5)
    pos, tricks = e.deal(3, players=3), 0
    while pos.legal_moves():
        before = pos.trick
        pos = pos.apply(rng.choice(pos.legal_moves()))
        tricks += bool(before) and not pos.trick and not pos.distributing
    assert pos.is_over() and pos.is_won() and pos.to_move is None and tricks == 9
    assert len(pos.display) + sum(1 for c in e.deck(3) if c not in pos.display) == 30
    assert sum(pos.scores) == sum(map(e.value_of, set(e.deck(3)) - set(pos.display)))


def test_play_order_goes_clockwise_from_the_leader():
    pos = position("1R 1Y 1G", ["5R 2R", "2G 2Y", "3G 3Y"], leader=3)
    assert pos.to_move == 3
    assert play(pos, "3G").to_move == 1 and play(pos, "3G", "5R").to_move == 2


# --- text ---------------------------------------------------------------------------------------------

def test_positions_round_trip_through_text_anywhere_in_a_game():
    rng = random.Random(2)
    for seed in range(6):
        pos = e.deal(seed, players=3 + seed % 4, values=10 - seed % 3)
        for _ in range(40):
            text = e.format_position(pos)
            assert e.parse(text) == pos, text
            if not pos.legal_moves():
                break
            pos = random_walk(pos, rng.randrange(1, 4), rng)


def test_a_position_mid_distribution_names_who_picks_next():
    pos = play(worked_example(), "7G", "2G", "9Y", "5R", "10B", "6R", "pick Y")
    text = e.format_position(pos)
    assert "to-pick: 4" in text and "trick: 7G 2G 9Y 5R 10B 6R" in text
    assert e.parse(text) == pos


@pytest.mark.parametrize("text, message", [
    ("display: 1R 2R 3R\nhand 1: 7O 1G\nhand 2: 2Y 3Y\nhand 3: 4Y 5Y\n", "^line 2: card 7O is not in play"),
    ("values: 1-5\ndisplay: 1R 2R 3R\nhand 1: 6G 1G\nhand 2: 2Y 3Y\nhand 3: 4Y 5Y\n", "^line 3: card 6G is not in play"),
    ("display: 1R 2R 3R\nhand 1: 1G 2G 3G 4G 5G 6G 7G 8G 9G 10G\nhand 2: 1Y\nhand 3: 2Y\n",
     "^line 2: hand 1 holds 10 cards; a hand holds at most 9$"),
    ("values: 1-11\ndisplay: 1R\nhand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\n",
     "^line 1: values 1-11: the highest value must be 2 to 10$"),
    ("display: 1R 2R 3R\nhand 1: 4R 5R 6R 7R 8R 9R 10R 1G 2G 3G\nhand 2: 1Y 2Y 3Y 4Y 5Y 6Y 7Y 8Y 9Y 10Y\n"
     "hand 3: 4G 5G 6G 7G 8G 9G 10G 1O 2O 3O\n", "^line 4: card 1O is not in play"),
    ("display: 1R 2R\nhand 1: 4R 5R\nhand 2: 1Y 2Y\nhand 3: 3Y 4Y\n",
     "scores add up to 0, .* are worth 143; without a 'scores:' line every score is 0"),
    ("display: 1R 1R\nhand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\n", "appears twice"),
    ("display: 1R\nhand 1: 4R\nhand 3: 1Y\n", "no 'hand 2:' line, though there is a 'hand 3:' line"),
    ("display: 1R\nhand 0: 4R\nhand 1: 1Y\n", "'hand 0:': hands are numbered from 1"),
    ("hand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\n", "no 'display:' line"),
    ("display: 1R\nhand 1: 4R 1Y\n", "1 hand line; Etalage is for 3 to 6 players"),
    ("display: 1R\nhand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\nleader: 4\n", "leader 4"),
    # mid-distribution, a leader out of range was once reported as "the players entitled to pick are nobody"
    ("display: 1R\nhand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\ntrick: 1G 2G 3G\nleader: 4\nto-pick: 2\n",
     "^line 6: leader 4: there are players 1 to 3$"),
    ("display: 1R\nhand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\nto-pick: 1\n", "to-pick 1, but the trick holds 0"),
    ("display: 1R\nhand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\nplayers: 3\n", "unknown line 'players'"),
    ("display: 1R\nhand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\nscores: 1 2\n", "scores needs 3 numbers"),
    # once solved: a trick starts with the deal's display or with the last trick's cards in it
    ("values: 1-5\ndisplay: -\nhand 1: 1R 2G 5G 4Y\nhand 2: 2Y 4G 1Y 3Y\nhand 3: 4R 5Y 1G 3G\nscores: 10 0 0\n",
     "^the display holds 0 cards; until a trick is complete it holds at least 3, the deal's or the last trick's$"),
])
def test_bad_positions_are_refused_naming_the_problem(text, message):
    with pytest.raises((ParseError, IllegalPositionError), match=message):
        e.parse(text)


def test_a_hand_count_that_disagrees_with_players_is_refused_counting_right():
    with pytest.raises(ParseError, match="^1 hand line but --players 3$"):
        e.parse("display: 1R\nhand 1: 4R 1Y\n", players=3)


def test_a_short_hand_is_named_even_when_it_is_the_leaders():
    lines = e.format_position(e.deal(1, players=3)).splitlines()
    lines[1] = " ".join(lines[1].split()[:-1])  # hand 1, the leader's, loses a card
    with pytest.raises(IllegalPositionError, match="^hand 1 holds 8 cards; with 0 played in this trick it must hold 9$"):
        e.parse("\n".join(lines))


def test_the_missing_scores_hint_only_when_the_scores_line_is_missing():
    text = "display: 1R 2R\nhand 1: 4R 5R\nhand 2: 1Y 2Y\nhand 3: 3Y 4Y\nscores: 0 0 0\n"
    with pytest.raises(IllegalPositionError, match="are worth 143$"):
        e.parse(text)


def test_a_picker_whose_turn_came_with_cards_on_display_has_scored():
    pos = e.deal(3, players=3)
    while not pos.distributing:
        pos = pos.apply(pos.legal_moves()[0])
    first, second = pos.order[:2]
    text = e.format_position(pos).replace(f"to-pick: {first}", f"to-pick: {second}")
    with pytest.raises(IllegalPositionError, match=f"player {first} picked before player {second} while the "
                                                   f"display held cards, but has scored nothing"):
        e.parse(text)
    assert e.parse(e.format_position(pos.apply(pos.legal_moves()[0]))).to_move == second


def test_a_dash_among_cards_is_named():
    text = "display: 1R\nhand 1: 4R\nhand 2: 1Y\nhand 3: 3Y\ntrick: - QQ\n"
    with pytest.raises(ParseError, match="'-' stands for no cards and stands alone, not among cards: '- QQ'"):
        e.parse(text)


def test_ten_cards_in_a_hand_are_refused():
    deal = e.format_position(e.deal(1, players=3))
    lines = deal.splitlines()
    lines[1] += " " + lines[2].split()[-1]
    lines[2] = " ".join(lines[2].split()[:-1])
    with pytest.raises(ParseError, match="^line 2: hand 1 holds 10 cards; a hand holds at most 9$"):
        e.parse("\n".join(lines))


def test_a_distribution_leaves_no_more_colours_than_its_picks_left_in_play():
    """Each pick takes a whole colour away and the trick joins the display only after the
    distribution, so after k picks at most P - k colours show: with players 2 and 3 picked
    (to-pick 1), three colours on display cannot arise (it was accepted and analysed)."""
    text = ("display: 2Y 9R 4G\nhand 1: 9Y 3R 10Y 2G\nhand 2: 7R 3Y 7Y 4R\nhand 3: 3G 6R 1Y 5Y\n"
            "scores: 9 28 31\nleader: 2\ntrick: 8Y 4Y 10R\n")
    assert e.parse(text + "to-pick: 2\n").order == (2, 3, 1)
    with pytest.raises(IllegalPositionError, match="^the display shows 3 colours after 2 picks of this trick's "
                                                   "distribution, .* at most 1 can be left$"):
        e.parse(text + "to-pick: 1\n")
    with pytest.raises(IllegalPositionError, match="after 1 pick of .* at most 2 can be left$"):
        e.parse(text + "to-pick: 3\n")
    rng = random.Random(5)  # and every position play reaches passes
    for seed in range(20):
        pos = e.deal(seed, players=3 + seed % 4, values=4)
        while pos.legal_moves():
            pos = pos.apply(rng.choice(pos.legal_moves()))
            e.check_position(pos)


def test_a_complete_trick_whose_strongest_colours_tie_reads_as_the_position_after_it():
    """Nobody picks, so the trick joins the display and the same leader leads: a 'to-pick:'
    line has nobody to name (the two messages once sent the user in a circle)."""
    text = ("values: 1-5\ndisplay: 1R 2R 3R\nhand 1: 1Y 2Y 3Y\nhand 2: 4Y 5Y 2G\nhand 3: 5R 5G 4G\n"
            "leader: 1\ntrick: 4R 1G 3G\n")
    after = e.parse(text)
    assert after == e.parse(text.replace("trick: 4R 1G 3G", "trick: -").replace("1R 2R 3R", "1R 2R 3R 4R 1G 3G"))
    assert after.trick == () and after.leader == 1 and after.to_move == 1
    with pytest.raises(ParseError, match="^line 8: to-pick 1: nobody picks, since the trick's strongest colours "
                                         "tie; leave the line out$"):
        e.parse(text + "to-pick: 1\n")
    taken = text.replace("display: 1R 2R 3R", "display: -") + "scores: 2 2 2\n"  # settled, it would hold 3
    with pytest.raises(IllegalPositionError, match="^the display holds 0 cards; until a trick is complete"):
        e.parse(taken)


# --- the plain search ------------------------------------------------------------------------------

def test_one_trick_the_guarantee_is_what_the_earlier_pickers_leave():
    """With one card each, the trick is forced: the i-th picker is sure of the (i+1)-th best
    colour of the display (the others take the better ones first) and at best gets the best,
    when the earlier pickers leave it."""
    for seed in range(20):
        deal = e.deal(seed, players=3, values=2)
        order = e.pick_order(tuple(hand[0] for hand in deal.hands), 1, 3)
        totals = sorted((sum(e.value_of(c) for c in deal.display if e.colour_of(c) == colour)
                         for colour in range(3)), reverse=True)
        colours = sum(1 for t in totals if t)
        for player in (1, 2, 3):
            i = order.index(player) if player in order else 3
            expected = (totals[i], totals[0]) if i < colours else (0, 0)
            assert e.values(deal, player) == expected, (seed, player)


def test_guarantees_hold_against_random_opponents_and_never_exceed_the_cooperative_best():
    rng = random.Random(3)
    for seed in range(2):
        deal = e.deal(seed, players=3, values=4)
        for player in (1, 2, 3):
            guaranteed, best = e.values(deal, player)
            assert guaranteed <= best
            for _ in range(3):
                pos = deal
                while pos.legal_moves():
                    moves = e.guaranteed_moves(pos, player) if pos.to_move == player else pos.legal_moves()
                    pos = pos.apply(rng.choice(moves))
                assert guaranteed <= pos.final_score(player) <= best


def test_fewer_cards_on_display_never_raise_a_guarantee_or_a_cooperative_best():
    """The premise of the kernel's cleared-display bound: whatever the others pick from a larger
    display leaves at least what some pick from the smaller one would, so taking cards out of
    the display (here at random, anywhere in small games) lowers no value."""
    rng = random.Random(5)
    checked = 0
    for seed in range(60):
        players, values = rng.choice([(3, 3), (3, 4), (4, 3)])
        pos = e.deal(seed, players=players, values=values)
        for _ in range(rng.randrange(0, 8)):
            pos = pos.apply(rng.choice(pos.legal_moves()))
        if not pos.legal_moves():
            continue
        fewer = tuple(c for c in pos.display if rng.random() < 0.5)
        smaller = replace(pos, display=fewer).settled()
        for player in range(1, players + 1):
            (guaranteed, best), (fewer_guaranteed, fewer_best) = e.values(pos, player), e.values(smaller, player)
            assert fewer_guaranteed <= guaranteed and fewer_best <= best, (player, e.format_position(pos), fewer)
        checked += fewer != pos.display
    assert checked >= 30
