"""The Game: Extreme's kernel (The Game's, given the marks) against the reference rules' plain
exhaustive search, on small decks with random instructions on some cards: the fewest cards left
must be equal and proven, and every line replays by `puzzles.the_game_extreme` to that value."""

from __future__ import annotations

import random
from dataclasses import replace

from puzzles import the_game as g
from puzzles import the_game_extreme as x
from solver.games.the_game_extreme.engine import GAME
from solver.result import WINNABLE, Budget

engine = GAME.engine
#: Every search here is tiny for a correct kernel; the limit turns a runaway into a failure.
SAFETY_SECONDS = 20.0


def small_position(rng: random.Random) -> x.Position:
    """A small deck (cards 2..top) dealt as The Game deals it, instructions on a random few
    cards (at most 4 of a kind), then a few random legal moves."""
    players = rng.randint(1, 3)
    expert = rng.random() < 0.3
    hand = 3 if expert else rng.choice([2, 3])
    top = rng.randint(6, 10 if hand == 2 else 8)
    plain = g.deal(rng.randrange(2**64), players=players, expert=expert, top=top, hand_size=hand)
    cards = rng.sample(range(2, top + 1), rng.randint(1, min(6, top - 1)))
    marks = tuple(sorted((card, rng.choice(x.KINDS)) for card in cards))
    position = x.Position(plain.hands, plain.draw, plain.piles, None, 0, expert, hand, top, marks)
    position = position.start(rng.randint(1, players))
    for _ in range(rng.randint(0, 6)):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(rng.choice(moves))
    return position


def test_the_kernel_finds_the_reference_optimum_on_small_decks_with_instructions():
    """100 positions (about 18 s, nearly all in the reference search; 1000 more agreed when run by
    hand): the same proven optimum;
    among them wins, positions left with cards, and positions the instructions make worse,
    skulls among them (these counts compare kernel values, checked against the reference above)."""
    rng = random.Random(2026)
    outcomes = {"won": 0, "cards left": 0, "worse by instructions": 0, "worse by skulls": 0}
    for _ in range(100):
        position = small_position(rng)
        expected, _ = x.fewest_cards_left(position)
        found = engine.search(position, Budget(time_limit=SAFETY_SECONDS))
        assert (found.cards_left, found.lower_bound) == (expected, expected), x.format_position(position)
        if found.moves:  # (none where the cards left now are proven the fewest)
            end = x.replay(position, found.moves)
            assert end.is_over() and end.cards_left == expected
        outcomes["won" if expected == 0 else "cards left"] += 1
        if position.played == 0:
            bare = engine.search(replace(position, marks=()), Budget(time_limit=SAFETY_SECONDS))
            outcomes["worse by instructions"] += expected > bare.cards_left
            no_skulls = tuple(mark for mark in position.marks if mark[1] != "skull")
            no_skull = engine.search(replace(position, marks=no_skulls), Budget(time_limit=SAFETY_SECONDS))
            outcomes["worse by skulls"] += expected > no_skull.cards_left
    assert all(count >= 3 for count in outcomes.values()), outcomes


def test_a_stop_opens_a_turn_below_the_minimum_in_the_kernel():
    """One card in hand, 2 to play while the draw pile lasts: only a stop can start the turn."""
    position = x.Position(((5,),), (6,), (1, 1, 9, 9), 1, 0, False, 1, 8, ((5, "stop"),))
    found = engine.search(position, Budget(time_limit=SAFETY_SECONDS))
    assert found.cards_left == 0 and found.moves[0].card == 5
    unmarked = engine.search(replace(position, marks=()), Budget(time_limit=SAFETY_SECONDS))
    assert unmarked.cards_left == 2 and unmarked.moves == []


def test_a_seeded_deal_is_solved_and_its_line_shows_the_instructions():
    result = engine.solve(x.deal(3), Budget(time_limit=60))
    assert result.verdict == WINNABLE and result.value == 0 and result.optimal
    end = x.replay(result.start, result.solution)
    assert end.is_over() and end.cards_left == result.value
    turns = result.to_json()["solution"]
    marked = [play for turn in turns for play in turn["plays"] if "instruction" in play]
    assert marked and all(result.start.instruction(play["card"]) == play["instruction"] for play in marked)
    # the moves too, as generate's files and survey's rows write them (they showed the bare card)
    plays = [str(move) for move in result.solution if not isinstance(move, x.EndTurn)]
    assert [play.partition(" ")[0] for play in plays if "!" in play] == [
        f"{play['card']}!{play['instruction']}" for play in marked]


def test_analyse_answers_each_distinct_play_with_its_reference_optimum():
    """Plays reaching the same position up to the order of a pile pair (the turn's pile renamed
    with it) get one answer; each answer is the reference optimum after the play."""
    rng = random.Random(5)
    for _ in range(6):
        plain = g.deal(rng.randrange(2**64), players=rng.randint(1, 2), top=9, hand_size=2)
        marks = tuple(sorted((card, rng.choice(x.KINDS)) for card in rng.sample(range(2, 10), 3)))
        position = x.Position(plain.hands, plain.draw, plain.piles, None, 0, False, 2, 9, marks).start(1)
        analysis = engine.analyse(position, Budget(time_limit=SAFETY_SECONDS))
        assert len(analysis.moves) == len({x.canonical(position.apply(m)) for m in position.legal_moves()})
        for item in analysis.moves:
            expected, _ = x.fewest_cards_left(position.apply(item.move))
            assert (item.value, item.bound) == (expected, expected), (x.format_position(position), str(item.move))


def test_the_kernels_bound_counts_a_skull_nothing_can_cover():
    """98!skull can go on an ascending pile (at 90 and 91), but only 99 or 88 could cover it
    there and both are gone; no descending pile (at 60 and 61) can take it. Before any search
    (a node limit of 1) the kernel's bound already says 1 card stays, which is the optimum; the
    same cards without the mark give a bound of 0 and are all played."""
    position = x.Position(((98, 55),), (), (90, 91, 60, 61), 1, 0, False, 2, 99, ((98, "skull"),))
    assert x.fewest_cards_left(position)[0] == 1
    assert engine.search(position, Budget(node_limit=1)).lower_bound == 1
    found = engine.search(position, Budget(time_limit=SAFETY_SECONDS))
    assert (found.cards_left, found.lower_bound) == (1, 1)
    unmarked = replace(position, marks=())
    assert engine.search(unmarked, Budget(node_limit=1)).lower_bound == 0
    assert engine.search(unmarked, Budget(time_limit=SAFETY_SECONDS)).cards_left == 0


def test_a_skull_whose_only_cover_can_never_be_played_counts_too():
    """Only 99 could cover 98!skull, and 99!skull itself has nothing to cover it (nothing above
    it, 89 gone): both stay, and the bound says 2 before any search."""
    position = x.Position(((98, 99, 55),), (), (90, 91, 60, 61), 1, 0, False, 3, 99,
                          ((98, "skull"), (99, "skull")))
    assert x.fewest_cards_left(position)[0] == 2
    assert engine.search(position, Budget(node_limit=1)).lower_bound == 2


def late_position(rng: random.Random) -> x.Position:
    """A position late in a game of cards 2..30 (at most 7 cards left), so that cards lie 10
    apart: pile tops are cards gone, some exactly 10 from a card still to play (a backwards trick
    is open), and a few marks, mostly no-backwards (some on pile tops) and same-pile."""
    players = rng.randint(1, 2)
    hand = rng.randint(2, 3)
    cards = list(range(2, 31))
    rng.shuffle(cards)
    draw_size = rng.randint(0, max(0, 7 - players * hand))
    if draw_size:
        sizes = [hand] * players
    else:
        sizes = [rng.randint(1 if p == 0 else 0, hand) for p in range(players)]
    hands = [tuple(cards[sum(sizes[:p]):sum(sizes[:p + 1])]) for p in range(players)]
    used = sum(sizes)
    stock, gone = cards[used:used + draw_size], cards[used + draw_size:]
    live = [c for h in hands for c in h] + stock
    back_up = [c for c in gone if c - 10 in live] or gone  # an ascending top a card 10 lower could go on
    up = [rng.choice(back_up)]
    up.append(rng.choice([c for c in gone if c not in up]))
    back_down = [c for c in gone if c + 10 in live and c not in up] or [c for c in gone if c not in up]
    down = [rng.choice(back_down)]
    down.append(rng.choice([c for c in gone if c not in up + down]))
    piles = tuple(up + down)
    marks = {}
    for card in rng.sample(live + list(piles), rng.randint(1, 4)):
        kind = rng.choice(("no-backwards", "no-backwards", "no-backwards", "same-pile", "draw-one", "stop"))
        marks[card] = "no-backwards" if card in piles and kind == "stop" else kind
    return x.Position(tuple(hands), tuple(stock), piles, 1, 0, False, hand, 30, tuple(sorted(marks.items())))


def test_the_kernel_agrees_on_backwards_tricks_under_no_backwards():
    """Seed 001, the no-backwards card: "Zolang deze kaart actief is, mag er geen achteruit truc
    uitgevoerd worden." (While this card is active, no backwards trick may be made.) Active: "tot
    het moment dat ze bedekt worden door een andere kaart" (until another card covers it). The
    small decks above (2..10) hold no two cards 10 apart, so they never try a backwards trick;
    here, on 2..30 late in a game, the kernel's proven optimum equals the reference's, with
    backwards tricks played and no-backwards cards that change the optimum both occurring."""
    rng = random.Random(30)
    backwards = changed = 0
    for _ in range(60):
        position = late_position(rng)
        expected, line = x.fewest_cards_left(position)
        found = engine.search(position, Budget(time_limit=SAFETY_SECONDS))
        assert (found.cards_left, found.lower_bound) == (expected, expected), x.format_position(position)
        if found.moves:
            end = x.replay(position, found.moves)
            assert end.is_over() and end.cards_left == expected
        step = position
        for move in line:
            backwards += isinstance(move, x.Play) and x.is_backwards(move.pile, step.piles[move.pile], move.card)
            step = step.apply(move)
        bare = replace(position, marks=tuple(mark for mark in position.marks if mark[1] != "no-backwards"))
        changed += x.fewest_cards_left(bare)[0] != expected
    assert backwards >= 10 and changed >= 3, (backwards, changed)
