"""The Sir Tommy kernel against the plain reference search on reduced decks: verdicts, the most
cards a player can hold, every kernel line replayed; known verdicts of seeded deals."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from puzzles import sir_tommy as st
from puzzles.sir_tommy import Position
from solver import sir_tommy as engine
from solver._native import SirTommyKernel
from solver.result import UNKNOWN, UNWINNABLE, WINNABLE, Budget


def reduced_deck(top_rank: int, suits: int, rng: random.Random) -> list[int]:
    deck = [s * 13 + r for s in range(suits) for r in range(top_rank)]
    rng.shuffle(deck)
    return deck


def played(position: Position, moves: int, rng: random.Random) -> Position:
    """The position after up to `moves` random legal moves."""
    for _ in range(moves):
        legal = position.legal_moves()
        if not legal:
            break
        position = position.apply(rng.choice(legal))
    return position


def end_phase(deck: list[int], rows: int, rng: random.Random) -> Position:
    """Every card in the rows, foundations empty: often lost."""
    piles = [[] for _ in range(rows)]
    for card in deck:
        piles[rng.randrange(rows)].append(card)
    return Position((), (), tuple(map(tuple, piles)), top_rank=max(c % 13 + 1 for c in deck))


def check_against_reference(position: Position) -> str:
    st.check_position(position)
    expected = st.reference_solve(position)
    result = engine.solve(position, Budget(time_limit=30))
    assert result.verdict == (WINNABLE if expected is not None else UNWINNABLE), st.format_position(position)
    if engine.reasons(position):  # every short reason is a proof
        assert expected is None, (engine.reasons(position), st.format_position(position))
    if result.verdict == WINNABLE:
        end = position
        for move in result.solution:
            assert move in end.legal_moves()
            end = end.apply(move)
        assert end.is_won()
    return result.verdict


SMALL = st_.tuples(st_.integers(2, 4), st_.integers(1, 3), st_.integers(1, 3), st_.integers(0, 2**32))
#: Decks of at most 6 cards: the reference's best win is exhaustive over every line, and one
#: 9-card deal (A-3 in three suits, 3 rows) took it 226 s and 6 GiB; 6 cards take under a second.
TINY = st_.tuples(st_.integers(2, 3), st_.integers(1, 2), st_.integers(1, 3), st_.integers(0, 2**32))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SMALL, st_.integers(0, 12))
def test_kernel_agrees_with_the_reference_search_on_partly_played_deals(shape, moves):
    top_rank, suits, rows, seed = shape
    rng = random.Random(seed)
    check_against_reference(played(st.start(reduced_deck(top_rank, suits, rng), rows), moves, rng))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SMALL, st_.integers(0, 6))
def test_kernel_agrees_with_the_reference_search_in_the_end_phase(shape, moves):
    top_rank, suits, rows, seed = shape
    rng = random.Random(seed)
    check_against_reference(played(end_phase(reduced_deck(top_rank, suits, rng), rows, rng), moves, rng))


def test_both_verdicts_occur_in_the_differential_cases():
    rng = random.Random(5)
    verdicts = {check_against_reference(end_phase(reduced_deck(3, 3, rng), 2, rng)) for _ in range(40)}
    verdicts |= {check_against_reference(st.start(reduced_deck(7, 2, random.Random(s)), 1)) for s in range(12)}
    assert verdicts == {WINNABLE, UNWINNABLE}


def held_score(player: str):
    return lambda won: won.held(player)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TINY, st_.integers(0, 8), st_.sampled_from(["U", "D"]))
def test_maximise_matches_the_reference_best_win(shape, moves, player):
    top_rank, suits, rows, seed = shape
    rng = random.Random(seed)
    position = played(st.start(reduced_deck(top_rank, suits, rng), rows), moves, rng)
    best = st.best_win(position, held_score(player))
    result = engine.solve(position, Budget(time_limit=30), maximise=player)
    if best is None:
        assert result.verdict == UNWINNABLE and result.maximum is None
        return
    assert result.maximum.proven and result.maximum.held == best[0] == result.held[player]


def test_maximising_each_player_in_turn_on_one_position():
    """The table keeps lost positions between searches of one deal: a target proven out of
    reach for U must not count for D."""
    rng = random.Random(68099)
    position = played(st.start(reduced_deck(3, 2, rng), 1), 8, rng)
    for player in ("U", "D", "U", "D"):
        best = st.best_win(position, held_score(player))
        result = engine.solve(position, Budget(time_limit=30), maximise=player)
        assert result.maximum.proven and result.maximum.held == best[0]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_seeded_deals_are_winnable_with_a_replayed_line(seed):
    deal = st.deal(seed)
    result = engine.solve(deal, Budget(time_limit=60))
    assert result.verdict == WINNABLE
    end = deal
    for move in result.solution:
        end = end.apply(move)
    assert end.is_won() and sum(result.held.values()) == 52


def test_a_budget_gives_unknown_and_the_table_is_capped():
    kernel = SirTommyKernel(1 << 12)
    assert kernel.table_bytes == 40 * (1 << 12)
    deal = st.deal(9)
    verdict, line, nodes, _ = kernel.solve(list(deal.stock), list(deal.hand), [[]] * 4, [0] * 4, [0] * 4, 0,
                                              node_limit=5)
    assert verdict == UNKNOWN and line == [] and nodes == 5


def test_the_kernel_refuses_bad_input():
    with pytest.raises(ValueError, match="rows"):
        SirTommyKernel().solve([], [1], [[]] * 9, [0] * 4, [0] * 4, 0)
    with pytest.raises(ValueError, match="above the top rank"):
        SirTommyKernel().solve([12], [], [[]] * 4, [0] * 4, [0] * 4, 0, top_rank=5)
