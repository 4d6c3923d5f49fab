"""The CP-SAT model of Twaalven en veertienen: its verdicts and lines against the reference rules
and the Rust DFS, and its unsat cores against brute force."""

from __future__ import annotations

import random
import time

import pytest
from ortools.sat.python import cp_model

from puzzles import twaalven as rules
from puzzles.cards import parse_card
from puzzles.twaalven import Position
from solver.games.twaalven import sat
from solver._native import Kernel
from solver.sat_core import assume
from solver.result import UNKNOWN, UNWINNABLE, WINNABLE
from tests.conftest import random_walk

# Lost, and no short reason applies (found by random play from deal 718, F starting): no line
# of play clears both column 8 and column 13.
CORE_OF_TWO = """
-
AS
3H
7S
-
2D 7H 4C
5H JC AC
3S QC 9H
-
JS
-
JD 4D
8S 9S 8H
to-move: T
"""


def played(seed: int, starter: str, turns: int, rng: random.Random) -> Position:
    """Deal `seed` after up to `turns` random legal moves with `starter` first."""
    return random_walk(rules.deal(seed).start(starter), turns, rng)


def kernel_verdict(kernel: Kernel, position: Position) -> str:
    columns = [list(c) for c in position.columns]
    return kernel.solve(columns, 0 if position.to_move == "T" else 1, [], 0, 20.0)[0]


def takes_all(position: Position, cards: set[int]) -> bool:
    """Brute force: does some line of play from `position` take every card in `cards`?"""
    seen = set()

    def search(pos: Position) -> bool:
        if not cards & {c for column in pos.columns for c in column}:
            return True
        if pos in seen:
            return False
        seen.add(pos)
        return any(search(pos.apply(move)) for move in pos.legal_moves())

    return search(position)


@pytest.mark.parametrize("seed", range(1, 6))
@pytest.mark.parametrize("starter", rules.PLAYERS)
def test_finds_a_winning_line_for_both_starters(seed, starter):
    start = rules.deal(seed).start(starter)
    result = sat.solve(start, time_limit=20)
    assert result.verdict == WINNABLE
    assert len(result.moves) == 26
    assert [m.player for m in result.moves[:2]] == [starter, rules.other(starter)]
    assert rules.replay(start, result.moves).is_won()


def test_seed_998_with_t_starting_is_infeasible_at_once():
    result = sat.solve(rules.deal(998).start("T"), time_limit=20)
    assert result.verdict == UNWINNABLE
    assert result.moves == [] and result.seconds < 2


def test_counting_invariant_decides_without_a_model():
    # Eight cards for two turns each: F would need 5-9 -1 times.
    position = rules.parse("TC\n6H 4H 4S 7S\n8H 3H TS\n" + "-\n" * 10 + "to-move: F\n")
    result = sat.solve(position)
    assert result.verdict == UNWINNABLE
    assert rules.reference_solve(position) is None


def test_a_column_longer_than_the_turns_left_is_lost():
    # Three turns cannot clear a column of four: each turn takes one card of a column at most.
    position = rules.parse("KC AS JS JC\nAD 3S\n" + "-\n" * 11 + "to-move: F\n")
    assert sat.solve(position).verdict == UNWINNABLE
    assert sat.core(position)[0] == [parse_card("KC")]


def test_time_limit_is_honoured():
    started = time.perf_counter()
    result = sat.solve(rules.deal(7).start("F"), time_limit=0.0)
    assert time.perf_counter() - started < 2
    assert result.verdict in (UNKNOWN, WINNABLE)


def test_agrees_with_the_rust_dfs_on_partly_played_positions():
    rng = random.Random(2024)
    kernel = Kernel("twaalven", 1 << 18)
    verdicts = []
    for seed in range(100, 130):
        position = played(seed, rng.choice(rules.PLAYERS), rng.randrange(4, 18), rng)
        dfs = kernel_verdict(kernel, position)
        result = sat.solve(position, time_limit=20)
        assert dfs != UNKNOWN and result.verdict == dfs, rules.format_position(position)
        if result.verdict == WINNABLE:
            assert rules.replay(position, result.moves).is_won()
        verdicts.append(dfs)
    assert WINNABLE in verdicts and UNWINNABLE in verdicts


def test_agrees_with_reference_search_on_small_positions():
    rng = random.Random(5)
    seen = {WINNABLE: 0, UNWINNABLE: 0}
    for seed in range(1, 40):
        position = played(seed, rng.choice(rules.PLAYERS), rng.randrange(19, 23), rng)
        if position.remaining == 0:
            continue
        expected = WINNABLE if rules.reference_solve(position) is not None else UNWINNABLE
        assert sat.solve(position, time_limit=20).verdict == expected, rules.format_position(position)
        seen[expected] += 1
    assert min(seen.values()) > 0


def test_unsat_core_is_infeasible_and_minimal():
    position = rules.parse(CORE_OF_TWO)
    assert rules.reference_solve(position) is None
    core, minimal = sat.core(position, time_limit=20)
    assert minimal
    # Re-solved with only the core's assumptions, the model stays infeasible ...
    model = sat._build(position, core=True)
    assert assume(model.model, model.taken, core, 20)[0] == cp_model.INFEASIBLE
    # ... brute force agrees, and without any one card the rest can be taken.
    assert not takes_all(position, set(core))
    for card in core:
        assert takes_all(position, set(core) - {card})


def test_unsat_core_is_none_when_winnable():
    # T takes 5S + 7S, then F takes 6H + 8H.
    position = rules.parse("5S\n7S\n6H\n8H\n" + "-\n" * 9 + "to-move: T\n")
    assert sat.solve(position).verdict == WINNABLE
    assert sat.core(position, time_limit=20) is None
