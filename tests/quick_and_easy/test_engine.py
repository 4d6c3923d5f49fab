"""Quick & Easy's engine against the reference search: the most cards played, its line replayed,
on positions late in random games (where the plain search is quick), wins and losses both."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import quick_and_easy as q
from solver._native import quick_and_easy_solve
from solver.games.quick_and_easy import engine as adapter
from solver.games.quick_and_easy.engine import GAME, kernel_search, step
from solver.result import UNKNOWN, UNWINNABLE, WINNABLE, Budget

engine = GAME.engine


def late_position(seed: int, players: int, pro: bool, left: int) -> q.Position:
    """The seeded deal played until at most `left` cards remain (or the game ends), mostly by
    the cheapest move (the engine's order), sometimes by a random one."""
    rng = random.Random(seed)
    position = q.deal(seed, players=players, pro=pro).start(rng.randint(1, players))
    while position.remaining > left and position.legal_moves():
        moves = position.legal_moves()
        cheapest = min(moves, key=lambda move: step(position, move))
        position = position.apply(cheapest if rng.random() < 0.85 else rng.choice(moves))
    return position


def assert_agrees(position: q.Position) -> int:
    expected, _ = q.most_cards_played(position)
    result = engine.solve(position, Budget(time_limit=60))
    assert (result.value, result.bound) == (expected, expected)
    end = q.replay(result.start, result.solution)
    assert end.cards_played == expected and not end.legal_moves()
    assert result.verdict == (WINNABLE if expected == 50 else UNWINNABLE)
    return expected


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4), pro=st.booleans(), left=st.integers(4, 12))
def test_engine_finds_the_reference_optimum(seed, players, pro, left):
    assert_agrees(late_position(seed, players, pro, left))


def test_late_positions_give_wins_and_losses():
    values = [assert_agrees(late_position(seed, 2, False, 10)) for seed in range(40)]
    assert 50 in values and any(v < 50 for v in values)


def test_a_table_too_small_for_the_search_still_gives_exact_values_and_their_lines():
    """With room for one value the search works out the rest again; its value is still exact,
    and the line of its best leaf, replayed, plays exactly that many cards."""
    for seed in range(30):
        position = late_position(seed, 2, seed % 2 == 1, 12)
        expected, _ = q.most_cards_played(position)
        found = kernel_search(position, Budget(time_limit=60), table_entries=1)
        assert (found.cards_played, found.upper_bound) == (expected, expected)
        assert q.replay(position, found.moves).cards_played == expected


def test_a_spent_budget_is_unknown_with_a_sound_bound():
    deal = q.deal(5, players=1)
    result = engine.solve(deal, Budget(time_limit=60, node_limit=3))
    if result.verdict == UNKNOWN:
        assert result.value < result.bound <= 50
    end = q.replay(result.start, result.solution)
    assert end.cards_played == result.value


def test_analyse_gives_each_move_its_value():
    position = late_position(3, 2, False, 10)
    analysis = engine.analyse(position, Budget(time_limit=60))
    for verdict in analysis.moves:
        expected, _ = q.most_cards_played(position.apply(verdict.move))
        assert (verdict.value, verdict.bound) == (expected, expected)
    best = max(v.value for v in analysis.moves)
    assert all(v.best == (v.value == best) for v in analysis.moves)


def test_analyse_searches_a_move_left_open_by_its_first_pass_again(monkeypatch):
    """A move whose first search ran out of its share is searched again with what the first
    pass left over (it was reported open with most of the time unused)."""
    position = late_position(3, 2, False, 10)
    hard = position.apply(position.legal_moves()[0])
    calls = []

    def first_search_of_the_first_move_runs_out(start, budget, table_entries):
        calls.append(start)
        if start == hard and calls.count(hard) == 1:
            return adapter.Search(start, start.cards_played, 50, [])  # stopped before any line
        return kernel_search(start, budget, table_entries)

    monkeypatch.setattr(adapter, "kernel_search", first_search_of_the_first_move_runs_out)
    passes = []
    analysis = engine.analyse(position, Budget(time_limit=60), progress=lambda items: passes.append(items) or items)
    assert calls.count(hard) == 2 and len(calls) == len(analysis.moves) + 1
    assert [len(keys) for keys in passes] == [len(analysis.moves), 1]  # a progress bar each
    expected, _ = q.most_cards_played(hard)
    assert (analysis.moves[0].value, analysis.moves[0].bound) == (expected, expected)
    assert all(v.value == v.bound for v in analysis.moves)


def test_analyse_of_a_deal_names_the_starter_only_where_the_players_choose_one():
    """As The Game's: a solo deal's plays are bare ('6G on up'); it named player 1 there."""
    solo = engine.analyse(q.deal(4, players=1), Budget(node_limit=2000))
    assert solo.moves and all(isinstance(item.move, q.Play) for item in solo.moves)
    pair = engine.analyse(q.deal(4, players=2), Budget(node_limit=2000))
    assert {item.move.player for item in pair.moves} == {1, 2}
    assert all(str(item.move).startswith(f"player {item.move.player}: ") for item in pair.moves)


def test_explain_says_a_single_card_fits_neither_pile():
    # It said "neither card fits either pile" of a hand of one card.
    stuck = q.parse("hand 1: 5R\nhand 2: -\ndraw: -\npiles: 9Y 1P\nto-move: 1\nplayed: 0\n")
    reasons = engine.explain(stuck, Budget(time_limit=10)).reasons
    assert "there player 1 holds 5R with piles at up 9Y, down 1P, and it fits neither pile" in reasons
    # It said "plays 49 cards in 0 turns" of a position where 49 had been played before.
    assert "the best line found (player 1 starting) plays 0 cards in 0 turns, 49 in all" in reasons
    assert not any("neither card" in reason for reason in reasons)
    # It said the exhaustive search proved the bound, where nothing was searched ("method rules").
    assert reasons[-1] == "no line plays more than 49 cards: the game is already over here"


def test_explain_cut_short_before_any_line_claims_no_stuck_hand():
    """A budget spent before any line ends the game leaves no line: explain said "there player 1
    holds 4B 10P with piles at up empty, down empty, and neither card fits either pile", where
    every card fits an empty pile (`explain quick-and-easy --players 1 --seed 5 --node-limit 1`)."""
    deal = q.deal(5, players=1)
    explanation = engine.explain(deal, Budget(time_limit=60, node_limit=1))
    assert explanation.verdict == UNKNOWN
    assert explanation.reasons == ["no line was found within the budget: the search stopped before any line ended the game"]


def test_seeded_deals_are_decided():
    for players in (1, 2, 5):
        for pro in (False, True):
            result = engine.solve(q.deal(1, players=players, pro=pro), Budget(time_limit=60))
            assert result.verdict in (WINNABLE, UNWINNABLE) and result.optimal


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 3), nodes=st.integers(1, 400))
def test_any_budget_leaves_replayable_lines_and_sound_bounds(seed, players, nodes):
    """A budget that runs out anywhere (in a search, or while a line is read off the table)."""
    deal = q.deal(seed, players=players)
    result = engine.solve(deal, Budget(time_limit=60, node_limit=nodes))
    assert result.value <= result.bound <= 50
    if result.solution:
        assert q.replay(result.start, result.solution).cards_played == result.value
    for verdict in engine.analyse(late_position(seed, players, False, 14), Budget(time_limit=60, node_limit=nodes)).moves:
        assert verdict.value <= verdict.bound


@pytest.mark.parametrize(
    ("hands", "draw", "piles", "played", "words"),
    [
        # a card in a hand and the draw pile: the count of cards played wrapped
        ([list(range(50))], [0, 1], [255, 255], 0, "card 0 is not in the deck or given twice"),
        # a draw pile of 256 cards or more: the turn's draw looped without end
        ([[0, 1]], [2] * 300, [255, 255], 0, "card 2 is not in the deck or given twice"),
        ([[0, 1]], [70], [255, 255], 0, "card 70 is not in the deck"),
        ([[0, 1]], [], [60, 255], 0, "pile top 60 is not in the deck"),
        ([[0, 1]], [], [255, 255], 3, "3 cards played this turn; a turn plays at most 2"),
    ],
)
def test_the_kernel_refuses_cards_it_cannot_count(hands, draw, piles, played, words):
    with pytest.raises(ValueError, match=words):
        quick_and_easy_solve(hands, draw, piles, 0, played, node_limit=1000)
