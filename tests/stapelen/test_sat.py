"""The CP-SAT model of Stapelen: its verdicts and lines against the reference rules and the Rust
DFS, and its unsat cores against brute force."""

from __future__ import annotations

import random
import time

from puzzles import stapelen as sp
from puzzles.cards import parse_card
from puzzles.stapelen import Position
from solver.games.stapelen.engine import GAME
from solver.games.stapelen import sat
from solver.result import UNKNOWN, UNWINNABLE, WINNABLE
from solver.result import SatResult

from tests.stapelen.test_kernel import played, small_positions

engine = GAME.engine

# Lost with no short reason (found by random play from deal 1014): B must put 4S on 3D, and
# after A takes KS or 7H, B's foundations (9D, 4S, TH) take neither of the last two cards.
CORE_OF_TWO = """\
7H
KS
-
-
-
-
-
-
-
-
4S
-
-
A: TD JC QS KH AC 2S 3S 4D 5H, 6H 7D 8S 9C TS JS QD, JH QC KC AS 2D 3C 4C 5D 6S
B: 5S 6D 7C 8H 9D, 8C 9H TC JD QH KD AD 2C 3D, AH 2H 3H 4H 5C 6C 7S 8D 9S TH
to-move: B
"""


def reference_verdict(pos: Position) -> str:
    return WINNABLE if sp.reference_solve(pos) is not None else UNWINNABLE


def places_all(pos: Position, cards: set[int]) -> bool:
    """Brute force: does some line of play from `pos` place every card in `cards`?"""
    seen = set()

    def search(p: Position) -> bool:
        if not cards & {c for column in p.columns for c in column}:
            return True
        if p in seen:
            return False
        seen.add(p)
        return any(search(p.apply(move)) for move in p.legal_moves())

    return search(pos)


def assert_line_wins(pos: Position, result: SatResult) -> None:
    assert len(result.moves) == pos.remaining
    players = [pos.to_move if s % 2 == 0 else sp.other(pos.to_move) for s in range(pos.remaining)]
    assert [m.player for m in result.moves] == players
    assert sp.replay(pos, result.moves).is_won()


def test_agrees_with_reference_search_on_small_positions():
    seen = {WINNABLE: 0, UNWINNABLE: 0}
    for pos in small_positions(25, 6, 13, rng_seed=11):
        expected = reference_verdict(pos)
        result = sat.solve(pos, time_limit=20)
        assert result.verdict == expected, sp.format_position(pos)
        if expected == WINNABLE:
            assert_line_wins(pos, result)
        seen[expected] += 1
    assert min(seen.values()) >= 3


def test_agrees_with_reference_when_foundations_are_empty():
    """Empty foundations take any card: the model counts starts per player."""
    rng = random.Random(12)
    seen = {WINNABLE: 0, UNWINNABLE: 0}
    for seed in range(1, 300):
        pos = played(seed, rng.randint(6, 13), rng, tries=3, keep_empty=True)
        if pos is None or all(pile for piles in pos.foundations for pile in piles):
            continue
        expected = reference_verdict(pos)
        result = sat.solve(pos, time_limit=20)
        assert result.verdict == expected, sp.format_position(pos)
        if expected == WINNABLE:
            assert_line_wins(pos, result)
        seen[expected] += 1
        if sum(seen.values()) == 15:
            break
    assert min(seen.values()) >= 2


# A's two kings are interchangeable tops and A3 is empty (random play from deal 1113); the
# only wins put JD on A3 and build QH, KD on it.
EQUAL_TOPS = """\
-
KD
6H
-
QH
-
5C
-
-
TC 4H JD
-
-
-
A: 2D 3H 4C 5H 6S 7C 8D 9H TD JS QD KH AC, 5D 6C 7D 8H 9D TH JC QC KS AS, -
B: AD 2C 3C, 7H 8S 9C TS JH QS KC AH 2H 3D 4S 5S 6D 7S 8C 9S, 2S 3S 4D
to-move: B
"""


def test_equal_tops_and_an_empty_foundation():
    pos = sp.parse(EQUAL_TOPS)
    result = sat.solve(pos, time_limit=20)
    assert result.verdict == WINNABLE
    assert_line_wins(pos, result)
    a_moves = [str(m) for m in result.moves if m.player == "A"]
    assert a_moves == ["A: JD (col 10) -> A3 (empty)", "A: QH (col 5) -> A3 on JD", "A: KD (col 2) -> A3 on QH"]


def test_unsat_core_is_infeasible_and_minimal():
    pos = sp.parse(CORE_OF_TWO)
    assert sp.reference_solve(pos) is None
    core, minimal = sat.core(pos, time_limit=20)
    assert minimal and sorted(core) == sorted(parse_card(n) for n in ("7H", "KS"))
    assert not places_all(pos, set(core))
    for card in core:
        assert places_all(pos, set(core) - {card})


def test_unsat_cores_of_random_positions_are_right():
    checked = 0
    winnable = 0
    for pos in small_positions(16, 5, 10, rng_seed=13):
        core = (sat.core(pos, time_limit=20) or [None])[0]
        lost = sp.reference_solve(pos) is None
        assert (core is not None) == lost, sp.format_position(pos)
        if core is None:
            winnable += 1  # every card can be placed, so there is no core
        else:
            assert not places_all(pos, set(core))
            checked += 1
    assert checked >= 5 and winnable >= 1


def test_time_limit_is_honoured_and_never_wrong():
    pos = sp.deal(4)
    started = time.perf_counter()
    result = sat.solve(pos, time_limit=0.5)
    assert time.perf_counter() - started < 3
    assert result.verdict in (UNKNOWN, WINNABLE)
    if result.verdict == WINNABLE:
        assert_line_wins(pos, result)


def test_a_won_position_needs_no_model():
    pos = sp.parse(sp.format_position(sp.replay(sp.deal(1), engine.solve(sp.deal(1)).solution)))
    assert pos.is_won()
    result = sat.solve(pos)
    assert (result.verdict, result.moves) == (WINNABLE, [])
