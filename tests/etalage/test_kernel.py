"""Etalage's Rust kernel against the plain exhaustive search of the reference rules.

On reduced decks (values 1..3 with 3 to 6 players, values 1..4 with 3), from deals (with 5 or
6 players, from the first distribution on) and from positions partly played (mid-trick and
mid-distribution), every player's guaranteed score and cooperative best must equal the
reference search's and be proven exact; the guarantee's line must replay to that score (the
engine checks) and keep the value at every move: the player's own moves best, the others' most
damaging.
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from puzzles import etalage as e
from solver import parallel
from solver._native import EtalageKernel
from solver.games.etalage.engine import GAME, GUARANTEES_SHARE
from solver.result import UNKNOWN, WINNABLE, Budget

engine = GAME.engine
SETTINGS = settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
#: Every search here is tiny for a correct kernel; the limit turns a runaway into a failure.
SAFETY_SECONDS = 20.0


@st.composite
def small_positions(draw):
    """A reduced seeded deal, possibly partly played by random legal moves."""
    players, values = draw(st.sampled_from([(3, 3), (3, 4), (4, 3), (5, 3), (6, 3)]))
    position = e.deal(draw(st.integers(0, 2**64 - 1)), players=players, values=values)
    rng = random.Random(draw(st.integers(0, 1000)))
    # with 5 or 6 players the reference search is quick only from the first distribution on
    played = players if players >= 5 else 0
    for _ in range(draw(st.integers(played, played + 10))):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(rng.choice(moves))
    return position


@SETTINGS
@given(small_positions())
# a trick whose top colours tie (nobody picks) once let the trick floor play on into the next
# trick and, past the last, value the empty hands as infinite
@example(e.Position(display=(13, 23, 3), hands=((0, 2), (22, 12, 11), (21, 10, 1)), scores=(0, 0, 0),
                    leader=1, trick=(20,), picked=0, values=4, record=()))
def test_kernel_values_equal_the_reference_search(position):
    for player in range(1, position.players + 1):
        guaranteed, best = e.values(position, player)
        found = engine.value(position, player, False, Budget(time_limit=SAFETY_SECONDS))
        helped = engine.value(position, player, True, Budget(time_limit=SAFETY_SECONDS))
        assert (found.lower, found.upper, helped.lower, helped.upper) == (guaranteed, guaranteed, best, best), \
            (player, e.format_position(position))
        pos = position
        for move in found.moves:
            assert move in e.guaranteed_moves(pos, player), (player, str(move), e.format_position(pos))
            pos = pos.apply(move)
        assert pos.is_over() and pos.final_score(player) == guaranteed


def late_position(seed: int) -> e.Position:
    """A full 3-player deal played at random until player 1 holds 3 cards, then on into the
    trick under way by up to a random number of cards."""
    position = e.deal(seed, players=3)
    rng = random.Random(seed)
    cards = rng.randint(0, 6)
    while len(position.hands[0]) > 3 or 0 < len(position.trick) < cards:
        position = position.apply(rng.choice(position.legal_moves()))
    return position


@pytest.mark.parametrize("seed", [2, 15, 24])
def test_late_positions_of_full_deals_equal_the_reference_search(seed):
    """Late in full deals the kernel bounds the next trick's distribution from a distribution
    and searches the trick before the last without the table; the reference search is quick
    there. (Seeds 15 and 24 caught that bound letting the pickers take one colour too few.)"""
    position = late_position(seed)
    for player in (1, 2, 3):
        found = engine.value(position, player, False, Budget(time_limit=SAFETY_SECONDS))
        guaranteed = e.values(position, player)[0]
        assert (found.lower, found.upper) == (guaranteed, guaranteed), (player, e.format_position(position))


def test_a_guarantee_of_nothing_on_a_larger_deck_keeps_its_value_and_line():
    # seed 47, values 1..7: player 1 can be held to 0 (two kernels agree). Keys that merged
    # positions differing in which card a hand held gave 2 and no line to realise it.
    deal = e.deal(47, players=3, values=7)
    found = engine.value(deal, 1, False, Budget(time_limit=SAFETY_SECONDS))
    assert (found.lower, found.upper) == (0, 0) and found.moves
    assert e.replay(deal, found.moves).final_score(1) == 0


def test_solve_reports_every_player_and_a_line_of_the_player_to_move():
    deal = e.deal(11, players=3, values=4)
    result = engine.solve(deal, Budget(time_limit=SAFETY_SECONDS))
    assert result.verdict == WINNABLE and result.optimal and result.starter == 1
    expected = [e.values(deal, player) for player in (1, 2, 3)]
    assert [(p["guaranteed"], p["cooperative_best"], p["result"]) for p in result.details["players"]] == \
        [(g, b, "exact") for g, b in expected]
    assert e.replay(deal, result.solution).final_score(1) == result.value == expected[0][0]


def test_a_node_limit_leaves_proven_bounds_and_no_line():
    deal = e.deal(3, players=3, values=6)
    result = engine.solve(deal, Budget(time_limit=SAFETY_SECONDS, node_limit=2000))
    assert result.verdict == UNKNOWN and result.solution == []
    guaranteed = engine.solve(deal, Budget(time_limit=60))  # values 1..6 decide in a second
    for bounded, exact in zip(result.details["players"], guaranteed.details["players"]):
        assert bounded["guaranteed"] <= exact["guaranteed"] <= bounded["guaranteed_bound"]
        assert bounded["cooperative_best"] <= exact["cooperative_best"] <= bounded["cooperative_bound"]
        assert bounded["result"] == "bounds" or bounded["line"]


def test_the_movers_line_is_given_once_their_guarantee_is_exact_though_other_values_are_open():
    """Seed 5 on values 1..6: the guarantees take 23,573 nodes (under a node limit searches run
    one at a time, so counts do not depend on timing), and 31,530 nodes (three quarters for the
    guarantees) leave the cooperative bests open. The mover's guarantee (0) is exact, so its
    line is given: solve printed none while any value was open."""
    deal = e.deal(5, players=3, values=6)
    engine.forget_kernel()
    result = engine.solve(deal, Budget(time_limit=SAFETY_SECONDS, node_limit=31_530))
    assert result.verdict == UNKNOWN and result.details["result"] == "bounds"
    assert [p.guaranteed.text() for p in result.players] == ["0", "8", "7"]
    assert not any(p.cooperative.exact for p in result.players)
    assert result.solution and result.optimal and e.replay(deal, result.solution).final_score(1) == 0
    assert "line realising player 1's guarantee" in "\n".join(result.lines())


def test_guarantees_too_large_to_finish_leave_the_cooperative_bests_their_share(monkeypatch):
    monkeypatch.setattr(parallel, "search_threads", 1)  # seconds searched then add up to the wall time
    deal = e.deal(7, players=3)  # a full deal: minutes to prove its guarantees
    result = engine.solve(deal, Budget(time_limit=2.0))
    assert result.verdict == UNKNOWN
    guarantees = sum(player.guaranteed.seconds for player in result.players)
    cooperative = sum(player.cooperative.seconds for player in result.players)
    assert guarantees <= 2.0 * GUARANTEES_SHARE + 0.1 and cooperative >= 0.3  # a quarter: 0.5 s
    for player in result.details["players"]:
        assert player["result"] == "bounds" and player["cooperative_best"] > 0


def test_stats_give_the_wall_time_of_searches_run_side_by_side(monkeypatch):
    """Searches on two threads: their seconds add up to twice the wall time, which a user
    reading `stats` against --time-limit would take for a budget overrun."""
    monkeypatch.setattr(parallel, "search_threads", 2)
    deal = e.deal(7, players=3)  # a full deal: no guarantee ends within the budget
    started = time.perf_counter()
    result = engine.solve(deal, Budget(time_limit=1.0), guarantees_only=True)
    wall = time.perf_counter() - started
    assert result.verdict == UNKNOWN
    assert sum(player.guaranteed.seconds for player in result.players) > 1.5  # searched side by side
    assert 0.9 <= result.stats.seconds <= wall


def test_analyse_marks_the_best_card_and_those_that_give_points_away():
    deal = e.deal(7, players=3, values=4)
    analysis = engine.analyse(deal, Budget(time_limit=SAFETY_SECONDS))
    values = {str(m.move.move): m.value for m in analysis.moves}
    assert {m.move.player for m in analysis.moves} == {1}
    assert values == {str(m): e.values(deal.apply(m), 1)[0] for m in deal.legal_moves()}
    best = max(values.values())
    assert [str(m.move.move) for m in analysis.moves if m.best] == [k for k, v in values.items() if v == best]
    assert all(m.verdict == "loses" for m in analysis.moves if m.value < best)


def test_analyse_gives_a_move_left_open_by_its_first_pass_another(monkeypatch):
    """A move whose search ran out of its share in the first pass is searched again with what
    the others left (it was reported open with most of the time unused), and its bounds from
    both passes are kept."""
    deal = e.deal(7, players=3, values=4)
    hard = deal.apply(deal.legal_moves()[0])
    calls = []
    value = engine.value

    def first_pass_leaves_the_first_move_open(position, player, cooperative, budget, helpers=0):
        calls.append(position)
        found = value(position, player, cooperative, budget, helpers)
        if position == hard and calls.count(hard) == 1:
            found.lower, found.moves = found.lower - 1, []  # as if stopped one test short
        return found

    monkeypatch.setattr(engine, "value", first_pass_leaves_the_first_move_open)
    passes = []
    analysis = engine.analyse(deal, Budget(time_limit=SAFETY_SECONDS),
                              progress=lambda items: passes.append(items) or items)
    assert calls.count(hard) == 2 and len(calls) == len(deal.legal_moves()) + 1
    assert [len(searches) for searches in passes] == [len(deal.legal_moves()), 1]  # a progress bar each
    assert analysis.verdict == WINNABLE and all(m.verdict != UNKNOWN for m in analysis.moves)
    assert analysis.moves[0].value == e.values(hard, 1)[0]


def test_bounds_left_by_a_spent_budget_hold_everywhere_in_small_games():
    """A node limit of 1 stops the kernel at once, leaving its static bounds: they must hold
    in every position of these games, for every player, paranoid and cooperative."""
    seen = set()

    def walk(position):
        if e.key(position) in seen or position.is_over():
            return
        seen.add(e.key(position))
        for player in range(1, position.players + 1):
            for cooperative, value in zip((False, True), e.values(position, player)):
                found = engine.value(position, player, cooperative, Budget(node_limit=1))
                assert found.lower <= value <= found.upper, (player, cooperative, e.format_position(position))
        for move in position.legal_moves():
            walk(position.apply(move))

    for seed in (1, 2):
        walk(e.deal(seed, players=3, values=3))
    walk(e.deal(3, players=4, values=3))
    assert len(seen) > 100


def test_a_finished_game_has_no_starter():
    """Every card played: nobody is to move, and the empty line has no starter (it said the
    leader, beside "to_move": null)."""
    position = e.deal(1, players=3, values=3)
    while not position.is_over():
        position = position.apply(position.legal_moves()[0])
    data = GAME.engine.solve(position, Budget(time_limit=10)).to_json()
    assert (data["verdict"], data["to_move"], data["starter"], data["solution"]) == (WINNABLE, None, None, [])


def test_the_kernel_refuses_uneven_hands():
    """Hands that no deal leaves (their sizes differ by more than the trick explains) made the
    kernel recurse without end and crash the process; they are a ValueError."""
    kernel = EtalageKernel(1 << 10)
    hands = [[21, 22, 28], [3, 4], [15, 16]]
    with pytest.raises(ValueError, match="hand 1 holds 2 cards, which does not fit hand 0 and a trick of 1"):
        kernel.solve([0, 10, 20], hands, 0, [13], 0, 0, node_limit=1000)
    # the leader's card is in the trick: the leader holds one card fewer than the others
    kernel.solve([0, 10, 20], [[21, 22], [3, 4, 5], [15, 16, 17]], 0, [13], 0, 0, node_limit=1000)


def test_helpers_under_a_node_limit_count_no_node_past_it():
    """Each helper spent the whole node limit again (they stop when the search ends): under a
    node limit the search runs alone, and late helpers do not join it."""
    rng = random.Random(5)
    deck = list(range(40))
    rng.shuffle(deck)
    hands, display = [deck[i * 9:(i + 1) * 9] for i in range(4)], deck[36:]
    for helpers in (0, 3):
        lower, upper, line, nodes, _ = EtalageKernel(1 << 16).solve(
            display, hands, 0, [], 0, 0, node_limit=20_000, time_limit=SAFETY_SECONDS, helpers=helpers)
        assert nodes == 20_000 and lower < upper and not line


def test_a_small_table_shared_by_stopped_and_resumed_searches_keeps_every_value():
    """One kernel with a tiny table (its entries replaced all the time) serves positions of 3 to
    6 players in turn, late in larger decks (where need keys, the trick floor's places and the
    cleared display cut) and early in small ones; every player's guarantee and cooperative best,
    each first stopped by a node limit (its bounds must hold) and then searched again on the same
    table to the reference value. What a stopped search, another player's or kind's search, or
    another deal left in the table or in the places memory must never count as a proof."""
    kernel = EtalageKernel(1 << 9)
    rng = random.Random(11)
    cases = [(3, 10, 3), (4, 10, 2), (5, 10, 2), (6, 10, 1), (3, 4, 3), (4, 3, 2), (3, 6, 3)]
    stopped = 0
    for players, values, hand in cases + cases[:3]:
        position = e.deal(rng.randrange(2**32), players=players, values=values)
        while max(map(len, position.hands)) > hand or rng.random() < 0.4:
            position = position.apply(rng.choice(position.legal_moves()))
        reference = [e.values(position, focus + 1) for focus in range(players)]
        searches = [(focus, cooperative) for focus in range(players) for cooperative in (False, True)]
        rng.shuffle(searches)
        p = position
        for focus, cooperative in searches:
            expected = reference[focus][cooperative] - position.scores[focus]
            for node_limit in (rng.choice([5, 20, 100, 400]), 0):
                lower, upper, line, _, _ = kernel.solve(
                    list(p.display), [list(h) for h in p.hands], p.leader - 1, list(p.trick), p.picked, focus,
                    cooperative, node_limit=node_limit, time_limit=SAFETY_SECONDS)
                assert lower <= expected <= upper, (focus, cooperative, node_limit, e.format_position(position))
                stopped += lower < upper
            end = e.replay(position, [e.Pick(code - 100) if code >= 100 else e.Play(code) for code in line])
            assert lower == upper and end.final_score(focus + 1) - position.scores[focus] == expected
    assert stopped >= 20, f"only {stopped} searches stopped with open bounds: the limits test too little"
