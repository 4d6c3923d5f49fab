"""Short reasons why a Stapelen position is lost: each on a position found by random play, checked
against the reference search and CP-SAT, and never given for a winnable position (Rust DFS)."""

from __future__ import annotations

import random

import pytest

from puzzles import stapelen as sp
from solver.games.stapelen.engine import GAME
from solver.games.stapelen import reasons as explain
from solver.games.stapelen import sat
from solver._native import Kernel
from solver.result import UNWINNABLE, WINNABLE, Budget

from tests.stapelen.test_kernel import played, small_positions
from tests.stapelen.test_sat import CORE_OF_TWO
from solver.registry import GAMES

ENGINE = GAMES['stapelen'].engine

engine = GAME.engine

EMPTY = "-\n"


def columns(**cols: str) -> str:
    """13 column lines: `c4="QC"` puts QC in column 4; the others are empty."""
    return "".join(cols.get(f"c{i}", "-") + "\n" for i in range(1, 14))


# Each position was found by random play from the deal named; the reason is the only one given.
CASES = {
    # (a) deal 725
    "no legal card": (
        columns(c4="QC", c10="JC")
        + "A: AS 2H 3C 4H 5C 6H, KD AC 2C 3H 4S 5S 6C 7H 8D 9S, 5D 6D 7C 8C 9D TS JD QD KS\n"
        "B: TH JH QH KC AH 2S 3D 4D, 7D 8S 9C TD JS QS KH AD 2D 3S, 4C 5H 6S 7S 8H 9H TC\nto-move: A\n",
        "A is to move and has no legal card: A's foundations (A1 on 6H, A2 on 9S, A3 on KS) take only an "
        "ace, a 7 or a 10, and no top card (QC (col 4), JC (col 10)) is one.",
    ),
    # (b) deal 1009: nothing left that A's foundations take
    "never again": (
        columns(c1="5S", c5="4C", c6="6D", c10="9D", c11="7C")
        + "A: TH JD QH, AC 2H 3H 4S 5C 6S 7D 8S 9C TC JC, 4D 5H 6C 7H 8D 9S TS JS QD KS\n"
        "B: 8C 9H TD JH QC KH AS 2C 3D, QS KD AH 2S 3C 4H 5D 6H 7S 8H, KC AD 2D 3S\nto-move: B\n",
        "A moves after B and has no empty foundation: A's foundations (A1 on QH, A2 on JC, A3 on KS) take "
        "only an ace, a queen or a king, and no such card is left, so A can never move again.",
    ),
    # (b) deal 479: B's only 7 lies under 5S, which A cannot take
    "covered": (
        columns(c3="7S 5S", c5="6D 4H")
        + "A: 7C 8H 9C TC JD QC KS AH 2C 3D, TH JS QD KD AC 2H, QH KH AS 2S 3C 4D 5D 6C\n"
        "B: 3H 4C 5C 6S 7D 8S 9S, 7H 8C 9D TS JH QS KC AD 2D 3S 4S 5H 6H, 8D 9H TD JC\nto-move: A\n",
        "B moves after A and has no empty foundation: B's foundations (B1 on 9S, B2 on 6H, B3 on JC) take "
        "only a 7, a 10 or a queen. Every such card left is covered: 7S (col 3) under 5S, which A cannot "
        "play (A's foundations, A1 on 3D, A2 on 2H, A3 on 6C, take only a 3, a 4 or a 7). A's one card in "
        "between uncovers at most one card, so B will have no legal card.",
    ),
    # (c) deal 550
    "hopeless card": (
        columns(c10="4H 2H 3H", c12="TS 8D")
        + "A: 5C 6H 7C 8S 9D, 9H TC JD QD KD AC 2S 3D 4C, 5S 6C 7S 8C 9S TH JC QH KC AS\n"
        "B: QC KH AD 2C 3S 4D 5H 6D 7H 8H 9C TD JS, QS KS AH 2D 3C 4S 5D 6S 7D, JH\nto-move: B\n",
        "3H (col 10) can never be placed: it must lie on a 2, but no foundation shows one, none is empty, "
        "and the only 2 left, 2H, lies beneath it in column 10.",
    ),
    # (c) deal 3049: two jacks, one 10 that can be under them
    "too few predecessors": (
        columns(c1="3S", c5="4C TD JD JS", c8="5D", c12="TH")
        + "A: KD AD 2C 3D 4D 5H 6H 7C 8H 9D, QH KH AH 2H, QS KS AC 2S 3C 4S 5S 6S 7S\n"
        "B: 4H 5C 6C 7D 8C 9S, 6D 7H 8S 9C TS JC QD KC AS 2D 3H, 8D 9H TC JH QC\nto-move: B\n",
        "Not every jack can be placed, as no foundation is empty: the jacks left each need their own 10 to "
        "lie on, and at most 1 of the 2 can have one: JD (col 5) only on TH (col 12) (TD beneath it); "
        "JS (col 5) only on TH (col 12) (TD beneath it).",
    ),
    # (c) deal 1248: two cards need a start, one foundation is empty
    "too few empty foundations": (
        columns(c1="8D", c2="TD", c4="5C 9S 6S", c8="3H 4S", c10="AD", c12="TC", c13="7S")
        + "A: 7D 8S 9H TH JC QS KD AH 2H 3C 4C 5D 6D, JS QH KS AC 2C, JH QD KC\n"
        "B: -, JD QC KH AS 2D 3S 4H 5S 6H 7C 8H 9C, 2S 3D 4D 5H 6C 7H 8C 9D TS\nto-move: A\n",
        "2 cards would have to start an empty foundation, but only 1 is empty (B1): 4S (col 8) needs a 3 "
        "to lie on, and can lie on nothing (3H beneath it); 6S (col 4) needs a 5 to lie on, and can lie on "
        "nothing (5C beneath it).",
    ),
    # (d) deal 744
    "circle": (
        columns(c1="3H TH", c4="8C 2D", c9="AS 9H", c10="4C QC")
        + "A: AC 2S 3D 4H 5S 6H 7H, JS QH KH AD 2H, KC AH 2C 3C 4D 5C 6S 7S 8S 9D\n"
        "B: 5D 6D 7D 8H 9S TC JD QD KS, 3S 4S 5H 6C 7C 8D 9C TD JC, TS JH QS KD\nto-move: A\n",
        "No foundation is empty, and these cards wait for each other in a circle: 2D (col 4) can only lie "
        "on AS (col 9), which lies beneath 9H; 9H (col 9) can only lie on 8C (col 4), which lies beneath 2D; "
        "so none of them can be placed first.",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_each_reason_on_a_small_position(name):
    source, expected = CASES[name]
    pos = sp.parse(source)
    assert explain.reasons(pos) == [expected]
    assert ENGINE.short_reason(pos) == expected
    assert sp.reference_solve(pos) is None
    assert sat.solve(pos, time_limit=20).verdict == UNWINNABLE


def test_no_legal_card_is_the_only_reason_given():
    pos = sp.parse(CASES["no legal card"][0])
    assert pos.is_lost() and len(explain.reasons(pos)) == 1


def test_a_card_the_mover_can_uncover_gives_no_reason():
    # A's foundations take an ace, an 8 or a queen, and the only such card, QS, is covered, but
    # by 4C, which B can play: B then uncovers QS for A, and the game is won (deal 1279).
    pos = sp.parse(
        columns(c4="3C", c11="QS 4C")
        + "A: 4D 5C 6D 7D 8D 9C TD JS QD KD, KC AD 2C 3D 4S 5H 6C 7S, 5S 6S 7C 8H 9H TS JH\n"
        "B: 9D TC JD QC KH AH 2D 3S, AS 2S 3H 4H 5D 6H 7H 8S, 8C 9S TH JC QH KS AC 2H\nto-move: B\n"
    )
    assert explain.reasons(pos) == []
    assert [str(m) for m in sp.reference_solve(pos)] == [
        "B: 4C (col 11) -> B1 on 3S", "A: QS (col 11) -> A3 on JH", "B: 3C (col 4) -> B3 on 2H"
    ]


@pytest.mark.parametrize("seed", range(1, 6))
def test_no_reason_for_winnable_deals(seed):
    assert explain.reasons(sp.deal(seed)) == []


def test_reasons_are_sound_on_random_positions():
    """Every position a reason is given for is lost by the Rust DFS (a kernel of its own)."""
    kernel = Kernel(sp.NAME, 1 << 18)
    rng = random.Random(21)
    explained = winnable = 0
    for seed in range(1, 1200):
        pos = played(seed, rng.randint(2, 40), rng, tries=1, keep_empty=rng.random() < 0.3)
        if pos is None or pos.remaining == 0:
            continue
        verdict = kernel.solve(*engine.to_kernel(pos))[0]
        found = explain.reasons(pos)
        if found:
            explained += 1
            assert verdict == UNWINNABLE, (found, sp.format_position(pos))
        winnable += verdict == WINNABLE
    assert explained >= 60 and winnable >= 150


def test_reasons_are_sound_on_small_positions_by_reference_search():
    explained = 0
    for pos in small_positions(60, 3, 12, rng_seed=22):
        if explain.reasons(pos):
            explained += 1
            assert sp.reference_solve(pos) is None, sp.format_position(pos)
    assert explained >= 10


def test_explain_winnable_deal_and_position():
    budget = Budget(time_limit=20)
    deal = engine.explain(sp.deal(1), budget)
    assert (deal.verdict, deal.method) == (WINNABLE, "none")
    assert deal.reasons == ["Winnable whoever starts; `winnable solve` prints a winning line."]
    won = next(p for p in small_positions(10, 6, 10, rng_seed=23) if sp.reference_solve(p) is not None)
    result = engine.explain(won, budget)
    assert (result.verdict, result.method) == (WINNABLE, "none")
    assert result.reasons == [f"Winnable with {won.to_move} to move; `winnable solve` prints a winning line."]


def test_explain_lost_position_gives_the_rules_reasons():
    pos = sp.parse(CASES["circle"][0])
    result = engine.explain(pos, Budget(time_limit=20))
    assert (result.verdict, result.method, result.reasons) == (UNWINNABLE, "rules", [CASES["circle"][1]])
    assert result.to_json() == {"game": "stapelen", "verdict": UNWINNABLE, "reasons": result.reasons, "method": "rules",
                                "proofs": []}


def test_explain_falls_back_to_an_unsat_core():
    pos = sp.parse(CORE_OF_TWO)
    assert explain.reasons(pos) == []
    result = engine.explain(pos, Budget(time_limit=20))
    assert (result.verdict, result.method) == (UNWINNABLE, "cp-sat core")
    assert result.reasons == [
        "A win places every card, but no line of play places all of these 2 cards: 7H (col 1, alone), "
        "KS (col 2, alone); CP-SAT proves it (a minimal set: without any one of them, the others can all "
        "be placed in one line)."
    ]
