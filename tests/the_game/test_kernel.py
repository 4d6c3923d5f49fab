"""The Rust kernel of The Game against the plain exhaustive search of the reference rules.

On small decks (cards 2..N, small hands, 1-3 players, with and without expert rules) the kernel's
fewest cards left must equal the reference search's, be proven optimal, and its line must end the
game with exactly that many cards left when replayed by `puzzles.the_game` (the engine's `search`
replays every line and raises otherwise).
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from puzzles import the_game as g
from puzzles.errors import IllegalPositionError
from solver._native import TheGameKernel
from solver.games.the_game import engine as the_game_engine
from solver.games.the_game import reasons
from solver.games.the_game.engine import GAME, TheGameEngine
from solver.result import UNKNOWN, UNWINNABLE, WINNABLE, Budget

engine = GAME.engine

SETTINGS = settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
#: Every search here is tiny for a correct kernel; the limit turns a runaway into a failure.
SAFETY_SECONDS = 20.0


@st.composite
def small_positions(draw):
    """A small seeded deal, possibly partly played by random legal moves."""
    players = draw(st.integers(1, 3))
    expert = draw(st.booleans())
    hand = 3 if expert else draw(st.sampled_from([2, 2, 3]))
    top = draw(st.integers(5, 8)) if hand == 3 else draw(st.integers(5, 12 if players == 1 else 10))
    seed = draw(st.integers(0, 2**64 - 1))
    position = g.deal(seed, players=players, expert=expert, top=top, hand_size=hand)
    position = position.start(draw(st.integers(1, players)))
    rng = random.Random(draw(st.integers(0, 1000)))
    for _ in range(draw(st.integers(0, 8))):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(rng.choice(moves))
    return position


def assert_agrees(position, **options):
    expected, _ = g.fewest_cards_left(position)
    found = engine.search(position, Budget(time_limit=SAFETY_SECONDS), **options)
    assert (found.cards_left, found.lower_bound) == (expected, expected), g.format_position(position)
    if not position.is_over():
        assert g.replay(position, found.moves).cards_left == expected
    return expected


@st.composite
def late_positions(draw):
    """A position late in a game of cards 2..30: at most 8 cards left in hands and the draw pile,
    pile tops among the cards gone, so backwards chains and dead cards matter."""
    players = draw(st.integers(1, 3))
    expert = draw(st.booleans())
    hand = draw(st.integers(3 if expert else 2, 3))
    cards = draw(st.permutations(range(2, 31)))
    draw_size = draw(st.integers(0, max(0, 8 - players * hand)))  # at most 8 cards: the reference is exponential
    if draw_size:
        hands = [cards[p * hand:(p + 1) * hand] for p in range(players)]
    else:
        sizes = [draw(st.integers(1 if p == 0 else 0, hand)) for p in range(players)]
        hands = [cards[sum(sizes[:p]):sum(sizes[:p + 1])] for p in range(players)]
    used = sum(map(len, hands))
    stock, gone = cards[used:used + draw_size], cards[used + draw_size:]
    # Ascending tops from the upper two thirds of the cards gone, descending from the lower two
    # thirds: piles that crowd the cards left, so that some positions leave cards.
    ordered = sorted(gone)
    ups = draw(st.lists(st.sampled_from(ordered[len(ordered) // 3:]), min_size=2, max_size=2, unique=True))
    lower = [c for c in ordered[:2 * len(ordered) // 3] if c not in ups]
    downs = draw(st.lists(st.sampled_from(lower), min_size=2, max_size=2, unique=True))
    piles = tuple(ups + downs)
    position = g.Position(tuple(map(tuple, hands)), tuple(stock), piles, 1, 0, expert, hand, 30)
    try:
        g.check_position(position)
    except IllegalPositionError:  # rarely, a card gone could lie under no pile
        assume(False)
    return position


@SETTINGS
@given(st.one_of(small_positions(), late_positions()))
def test_kernel_finds_the_reference_optimum(position):
    assert_agrees(position)


@SETTINGS
@given(st.one_of(small_positions(), late_positions()))
def test_exact_search_alone_finds_the_reference_optimum(position):
    """Without the beam search, the exact searches alone must find the optimum and its line."""
    assert_agrees(position, beam_widths=[])


def test_differential_cases_cover_wins_and_losses():
    """Late positions give both wins and cards left, so the tests above see both."""
    values = []

    @settings(max_examples=40, deadline=None, database=None, derandomize=True)
    @given(late_positions())
    def collect(position):
        values.append(assert_agrees(position))

    collect()
    assert 0 in values and any(v > 0 for v in values)


@pytest.mark.parametrize("seed", range(1, 6))
def test_known_solo_results(seed):
    """Solo seeds 1-5 of the full deck are won; the line replays to every card played."""
    result = engine.solve(g.deal(seed), Budget(time_limit=60))
    assert (result.verdict, result.value, result.optimal) == (WINNABLE, 0, True)
    assert g.replay(result.start, result.solution).is_won()
    assert sum(len(turn.plays) for turn in result.turns) == 98


def test_a_proven_loss_reports_its_bound():
    # Piles at 90/91 and 20/21: 40 and 60 fit nowhere, ever.
    text = "hand 1: 40 60\ndraw: -\npiles: 90 91 20 21\nto-move: 1\nplayed: 0\n"
    result = engine.solve(g.parse(text), Budget())
    assert (result.verdict, result.value, result.bound, result.solution) == (UNWINNABLE, 2, 2, [])


def test_dead_card_bound_matches_the_python_facts():
    """With one node and no beam, the kernel's bound is its dead-card count at the root."""
    rng = random.Random(5)
    for _ in range(40):
        position = g.deal(rng.randrange(2**32), players=2).start(1)
        for _ in range(rng.randrange(60)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.apply(rng.choice(moves))
        if position.is_over():
            continue
        found = engine.search(position, Budget(time_limit=None, node_limit=1), beam_widths=[])
        assert found.lower_bound == len(g.dead_cards(position)), g.format_position(position)


def root_bound(position) -> int:
    """The kernel's lower bound at `position` before any search (one node, no beam)."""
    return engine.search(position, Budget(time_limit=None, node_limit=1), beam_widths=[]).lower_bound


def boxed_in_solo_position(rng: random.Random):
    """A solo position of cards 2..40 with the ascending piles at 24-30 and the descending at
    12-18, holding a few cards between them (which often fit nowhere, so hands clog) and a few
    outside; None when the cards gone cannot all lie under those piles."""
    expert = rng.random() < 0.4
    hand = rng.randint(3, 4)
    ups, downs = rng.sample(range(24, 31), 2), rng.sample(range(12, 19), 2)
    between = range(max(downs) + 1, min(ups))
    outside = [card for card in range(2, 41) if card > max(ups) or card < min(downs)]
    left = rng.sample(between, rng.randint(2, 4)) + rng.sample(outside, rng.randint(3, 7))
    rng.shuffle(left)
    position = g.Position((tuple(left[:hand]),), tuple(left[hand:]), tuple(ups + downs), 1, 0, expert, hand, 40)
    try:
        g.check_position(position)
    except IllegalPositionError:
        return None
    return position


def test_clog_bound_matches_the_python_facts_and_the_reference():
    """Solo, the kernel's root bound is the dead-card count or the clog bound, whichever is
    higher, as the Python reasons compute them, and never above the reference optimum."""
    rng = random.Random(1)
    clogs = 0
    for _ in range(300):
        position = boxed_in_solo_position(rng)
        if position is None or position.is_over():
            continue
        dead = set(g.dead_cards(position))
        clog = reasons.clog_bound(position, dead)
        bound = max(len(dead), clog[0] if clog else 0)
        clogs += bound > len(dead)
        assert root_bound(position) == bound <= g.fewest_cards_left(position)[0], g.format_position(position)
    assert clogs >= 10


def test_a_hand_clogged_before_the_draw_pile_ends_bounds_the_cards_left():
    """Piles at 60/61 and 40/41: the cards 42-59 fit nowhere. The hand holds five of them and
    the draw pile two more within its first three cards, so after at most 4 more draws the hand
    holds 7 of them and can never play 2 again: at least 8 + (20 - 4) = 24 cards stay."""
    dead_in_hand = "42 43 44 45 46 70 30 "
    text = ("hand 1: " + dead_in_hand + "71\n"
            "draw: 72 47 48 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89\n"
            "piles: 60 61 40 41\nto-move: 1\nplayed: 0\n")
    position = g.parse(text)
    dead = set(g.dead_cards(position))
    assert len(dead) == 7 and reasons.clog_bound(position, dead) == (24, 3, [42, 43, 44, 45, 46, 47, 48])
    assert root_bound(position) == 24
    result = engine.solve(position, Budget(time_limit=SAFETY_SECONDS))
    assert result.optimal and result.value >= 24


#: Solo seed 37 eight turns before the heuristic player got stuck: the best line leaves 28.
STUCK = """hand 1: 65 78 29 95 63 69 72 40
draw: 88 13 67 16 56 73 83 62 2 99 50 71 11 12 47 6 37 76 35 70 24 21 93 90 26 42 44 91 59 15 17 36 20 18 48 19 97 32 34 45
piles: 98 60 4 23
to-move: 1
played: 0
"""


def test_a_stuck_position_is_proven_by_searching_down_from_the_best_line():
    """Its optimum, 28, lies far above every bound. Searches upward from the bound alone took
    343,000 nodes to prove it; with downward searches (below the best line) taking turns, it
    takes about 140,000."""
    result = engine.solve(g.parse(STUCK), Budget(time_limit=None, node_limit=250_000))
    assert (result.value, result.bound, result.optimal) == (28, 28, True)
    assert g.replay(result.start, result.solution).cards_left == 28


def test_best_starter_over_every_starter():
    deal = g.deal(4, players=3, top=10, hand_size=2)
    values = {s: g.fewest_cards_left(deal.start(s))[0] for s in (1, 2, 3)}
    result = engine.solve(deal, Budget(time_limit=SAFETY_SECONDS))
    assert result.value == min(values.values()) == values[result.starter]
    assert result.optimal


def test_a_hit_budget_is_unknown_and_keeps_a_replayable_line():
    result = engine.solve(g.deal(24), Budget(time_limit=None, node_limit=100))
    assert result.verdict == UNKNOWN and not result.optimal
    if result.solution:
        assert g.replay(result.start, result.solution).cards_left == result.value


def test_explain_cut_short_before_any_line_says_no_line_was_found():
    """With no line ending the game, explain said "the best line found (player 1 starting) ends
    after 0 turns with 98 cards left" of a deal where no line ends (`explain the-game --seed 5
    --node-limit 1`)."""
    reasons_ = engine.explain(g.deal(5), Budget(time_limit=None, node_limit=1)).reasons
    assert reasons_[0] == "no line was found within the budget: the search stopped before any line ended the game"
    assert not any("ends after" in reason for reason in reasons_)


def slow_kernel(table_entries: int) -> TheGameKernel:
    """A kernel that takes 0.6 s to make, as the real table does on a busy machine."""
    time.sleep(0.6)
    return TheGameKernel(1 << 16)


@pytest.mark.parametrize("command", ["solve", "analyse"])
def test_making_the_kernel_takes_no_search_time(monkeypatch, command):
    """The kernel is made off the budget's clock, before the budget is shared out: made inside
    the first starter's search, it took that starter's share, and `solve the-game --seed 4
    --players 3 --smaller-hand --expert --time-limit 1` reported player 1 unsearched (0 nodes,
    98 cards left) on some runs and winnable on others."""
    monkeypatch.setattr(the_game_engine, "TheGameKernel", slow_kernel)
    deal = g.deal(4, players=3, top=30, hand_size=4)
    result = getattr(TheGameEngine(), command)(deal, Budget(time_limit=0.3))
    searches = result.by_starter if command == "solve" else result.moves
    assert searches and result.stats.nodes > 0
    if command == "solve":
        assert all(s.searched and s.nodes > 0 for s in result.by_starter)


def test_a_starter_given_no_time_is_reported_unsearched():
    """A start the budget left no time shows no made-up value: not '98 (bound 0)' but 'not searched'."""
    result = engine.solve(g.deal(4, players=3), Budget(time_limit=0))
    assert [s.nodes for s in result.by_starter] == [0, 0, 0] and result.verdict == UNKNOWN
    assert "by starter: player 1 not searched (no budget left), player 2 not searched (no budget left)" in "\n".join(
        result.lines())
    assert [s["searched"] for s in result.to_json()["by_starter"]] == [False, False, False]


def test_table_reuse_across_analyse_children_keeps_answers_exact():
    """analyse searches the children of one position with one table; each child must still
    equal its reference optimum."""
    position = g.deal(3, top=11, hand_size=2).start(1)
    analysis = engine.analyse(position, Budget(time_limit=SAFETY_SECONDS))
    assert len(analysis.moves) == len({g.canonical(position.apply(move)) for move in position.legal_moves()})
    for item in analysis.moves:
        expected, _ = g.fewest_cards_left(position.apply(item.move))
        assert (item.value, item.bound) == (expected, expected)


def test_plays_that_reach_the_same_position_get_one_answer():
    """With both ascending piles at 1, a card on up1 or on up2 is the same play: analyse gives it
    one answer, under up1, from one search."""
    position = g.deal(7).start(1)
    analysis = engine.analyse(position, Budget(time_limit=SAFETY_SECONDS))
    shown = [str(item.move) for item in analysis.moves]
    card = position.hand[0]
    assert f"{card} on up1" in shown and f"{card} on up2" not in shown
    assert len(shown) == 2 * len(position.hand)
    assert analysis.verdict == WINNABLE and analysis.objective.value_key == "cards_left"


def test_analyse_of_a_deal_names_the_starter_of_each_play():
    deal = g.deal(3, players=2, top=11, hand_size=2)
    analysis = engine.analyse(deal, Budget(time_limit=SAFETY_SECONDS))
    assert {item.move.player for item in analysis.moves} == {1, 2}
    for item in analysis.moves:
        after = deal.start(item.move.player).apply(item.move.play)
        assert str(item.move).startswith(f"player {item.move.player}: ")
        assert (item.value, item.bound) == (g.fewest_cards_left(after)[0],) * 2


def test_analyse_under_a_node_limit_alone_ends_within_it():
    """With no time limit, analyse's passes must count the nodes they spend: each pass got all
    the nodes afresh, so a deal with plays left open ran forever (the fuzz test hung on it)."""
    budget = Budget(time_limit=None, node_limit=2000)
    analysis = engine.analyse(g.deal(1), budget)
    assert budget.exhausted() and analysis.stats.nodes == budget.nodes_used <= 2000
    assert any(item.bound != item.value for item in analysis.moves)  # some play left open: the budget bound it


# --- kernel input checks ----------------------------------------------------------------------

HAND = [2, 3, 4, 5, 6, 7, 8, 9]
START = [1, 1, 100, 100]


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        # a hand of more cards than a turn's moves hold (it panicked: index out of bounds)
        ({"hands": [list(range(2, 30))]}, "hand 0 holds 28 cards; at most 8"),
        ({"hand_size": 12}, "hand size 12: at most 11"),
        ({"beam_widths": [8, 0]}, "a beam of width 0"),  # it panicked: an index of 2^64 - 1
        # out of the bit sets' range or given twice: wrong answers, never an error
        ({"draw": [200]}, "card 200 is out of range"),
        ({"draw": [9, 10]}, "card 9 is out of range 2..=120 or given twice"),
        ({"piles": [1, 1, 200, 100]}, "pile top 200 is out of range"),
        ({"top": 255}, "top card 255"),
        ({"played": 255}, "255 cards played this turn from a hand of 8"),
        ({"hands": [HAND[:7]], "played": 2}, "hand 0 holds 7 cards; at most 6"),
        ({"marks": [], "turn": (5, False, True)}, "a stop but no card played"),
    ],
)
def test_the_kernel_refuses_arguments_it_cannot_search(arguments, words):
    call = {"hands": [HAND], "draw": [10, 11], "piles": START, "to_move": 0, **arguments}
    with pytest.raises(ValueError, match=words):
        TheGameKernel(1024).solve(**call)
    TheGameKernel(1024).solve([HAND], [10, 11], START, 0)  # the same call, its arguments fixed
