"""The Game: Extreme's positions: whatever random play reaches parses back (docs/positions.md),
and with no instructions the variant is The Game move for move."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import the_game as g
from puzzles import the_game_extreme as x
from puzzles.errors import IllegalPositionError
from puzzles.the_game import EndTurn


def jump(position: x.Position, move) -> int:
    """How far a play moves its pile (a backwards trick counts as 0; ending the turn as 5)."""
    if isinstance(move, EndTurn):
        return 5
    top = position.piles[move.pile]
    return 0 if g.is_backwards(move.pile, top, move.card) else abs(move.card - top)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 5), steps=st.integers(0, 200), expert=st.booleans())
def test_every_position_random_play_reaches_parses_back(seed, players, steps, expert):
    """Random play mostly makes the smallest jump, so games run long and instructions fire
    (short hands after draw-one, turns bound by same-pile or three); every position parses back."""
    rng = random.Random(seed)
    position = x.deal(seed, players=players, expert=expert).start(rng.randint(1, players))
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        smooth = min(moves, key=lambda move: jump(position, move))
        position = position.apply(smooth if rng.random() < 0.85 else rng.choice(moves))
        assert x.parse(x.format_position(position)) == position


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 3), steps=st.integers(0, 60))
def test_without_instructions_the_variant_is_the_game(seed, players, steps):
    """The same random walk in both rule sets: the same moves at every step."""
    rng = random.Random(seed)
    plain = g.deal(seed, players=players, top=40).start(1)
    bare = x.Position(*(getattr(plain, f.name) for f in fields(g.Position)))
    for _ in range(steps):
        moves = plain.legal_moves()
        assert bare.legal_moves() == moves and bare.is_over() == plain.is_over()
        if not moves:
            break
        move = rng.choice(moves)
        plain, bare = plain.apply(move), bare.apply(move)
        assert bare.hands == plain.hands and bare.draw == plain.draw and bare.piles == plain.piles


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_reference_search_line_replays_to_its_value_on_a_small_deck(seed):
    """Cards 2..10, hands of 3, instructions seeded on the small deck (all of them, 4 each
    as far as 9 cards go): the line the search reports is legal and leaves what it claims."""
    start = x.deal(seed, top=10, hand_size=3).start(1)
    left, line = x.fewest_cards_left(start)
    end = x.replay(start, line)
    assert end.is_over() and end.cards_left == left


def test_a_turn_pile_no_card_went_on_is_refused():
    """One card on up1 this turn: 'down1' (never played on) and 'mixed' (one card) cannot be."""
    position = x.deal(4, players=3).start(1)
    position = position.apply(next(m for m in position.legal_moves() if getattr(m, "pile", None) == 0))
    text = x.format_position(position)
    assert "this-turn: up1" in text and x.parse(text) == position
    for turn, words in [("down1", "no card was ever played on down1"), ("mixed", "but 'played:' is 1")]:
        with pytest.raises(IllegalPositionError, match=words):
            x.parse(text.replace("this-turn: up1", f"this-turn: {turn}"))


@pytest.mark.parametrize("seed, card, flag", [(12, 22, "three"), (3, 55, "stop")])
def test_the_turn_piles_last_card_must_agree_with_the_turn_line(seed, card, flag):
    """One card on up1 this turn, a three (seed 12) or a stop (seed 3): the pile shows it, so the
    'this-turn:' line must say so. Without the word the position was read as a turn that had
    played no three (solve then ended it after 2 cards) or no stop (and played on)."""
    position = x.deal(seed, players=3).start(1)
    position = position.apply(next(m for m in position.legal_moves() if getattr(m, "card", None) == card))
    text = x.format_position(position)
    assert f"piles: {card}!{flag} 1 100 100" in text and f"this-turn: up1 {flag}" in text
    assert x.parse(text) == position
    with pytest.raises(IllegalPositionError, match=f"{card}!{flag} on up1 is this turn's last card"):
        x.parse(text.replace(f"this-turn: up1 {flag}", "this-turn: up1"))


def test_a_stop_said_to_end_the_turn_must_show_on_its_pile():
    position = x.deal(4, players=3).start(1)
    position = position.apply(next(m for m in position.legal_moves() if getattr(m, "pile", None) == 0))
    text = x.format_position(position)
    assert "this-turn: up1\n" in text
    with pytest.raises(IllegalPositionError, match="which is not a stop"):
        x.parse(text.replace("this-turn: up1", "this-turn: up1 stop"))


def test_a_three_said_to_be_played_must_show_when_every_card_of_the_turn_does():
    """Seed 4: 95 on up1, then 62 on down1. 'this-turn: up1 three' with one card that is not a
    three was accepted, and so a turn that had played no three had to end at exactly 3 cards."""
    position = x.deal(4, players=3).start(1)
    position = position.apply(next(m for m in position.legal_moves() if getattr(m, "pile", None) == 0))
    text = x.format_position(position)
    with pytest.raises(IllegalPositionError, match="up1 shows 95, this turn's only card, which is not a three"):
        x.parse(text.replace("this-turn: up1", "this-turn: up1 three"))
    position = position.apply(next(m for m in position.legal_moves() if getattr(m, "pile", None) == 2))
    text = x.format_position(position)
    assert "this-turn: mixed\n" in text
    with pytest.raises(IllegalPositionError, match="this turn's 2 cards show on two piles and neither is a three"):
        x.parse(text.replace("this-turn: mixed", "this-turn: mixed three"))


def test_a_stop_with_a_three_before_the_third_card_is_refused_saying_so():
    """Seed 12: 22!three on up1, 1 card this turn. Adding 'stop' to the turn line was refused as
    '1 cards played this turn with a three', which named neither the stop nor the rule."""
    position = x.deal(12, players=3).start(1)
    position = position.apply(next(m for m in position.legal_moves() if getattr(m, "card", None) == 22))
    text = x.format_position(position)
    with pytest.raises(IllegalPositionError, match="a stop ended the turn after 1 card; with a three, a stop may only be the turn's third card"):
        x.parse(text.replace("this-turn: up1 three", "this-turn: up1 three stop"))
    with pytest.raises(IllegalPositionError, match="^1 card played this turn: a 'this-turn:' line must name the piles"):
        x.parse(text.replace("this-turn: up1 three\n", ""))
