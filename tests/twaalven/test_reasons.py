"""Short reasons why a Twaalven en veertienen deal or position is lost, each checked against
CP-SAT (and the reference search where the position is small), and required_pairs against the
Rust kernel."""

from __future__ import annotations

import random

import pytest

from puzzles import twaalven as rules
from puzzles.cards import card_name
from solver.games.twaalven import pairs
from solver.games.twaalven import reasons as explain
from solver.words import rank_counts
from solver.games.twaalven import sat
from solver._native import Kernel
from solver.result import UNWINNABLE, WINNABLE, Budget
from solver.registry import GAMES

ENGINE = GAMES['twaalven'].engine

EMPTY = "-\n"

# (b) All four 6s in column 4: T's 6-6 can never be taken, whoever starts.
SIXES_IN_ONE_COLUMN = """
AS 2S 3S 4S
5S 7S 8S 9S
TS JS QS KS
6S 6H 6D 6C
AH 2H 3H 4H
5H 7H 8H 9H
TH JH QH KH
AD 2D 3D 4D
5D 7D 8D 9D
TD JD QD KD
AC 2C 3C 4C
5C 7C 8C 9C
TC JC QC KC
"""

# (d) Every bottom card is an A, 2, 3 or 4: no two make 12 or 14, so whoever plays the last turn
# has nothing to take.
LOW_BOTTOMS = """
AS QC 7S 6H
AH 6S 4H TS
AD QH TC QD
AC 8D KH 7C
2S 7D 6D 8C
2H 5H JD 9C
2D KC 9H 9D
2C 4D 8H 4C
3S 5S TH 8S
3H JS TD 7H
3D 5D 5C KD
3C 6C QS JH
4S 9S JC KS
"""

# Small positions, one per reason; columns 1.. as given, the rest empty.
SMALL = {
    # (b) The three 7s share column 2, and F must still take 7-7 once.
    "cross-column": (["5H", "7H 7C 7D", "4C", "8H"], "T"),
    # (c) AS pairs with a jack or a king, and all of them lie in its column.
    "lonely card": (["KC AS JS JC", "AD 3S"], "F"),
    # (d) T plays the third and last turn; the bottoms JC, QD, 3S, TS make no 12.
    "last turn": (["JC", "QD", "3S 2D", "-", "TS KH"], "T"),
    # (e) After T's 5S + 7S, F needs 3C (under KH) for JD and QD (under JD) for KH.
    "cycle": (["QD JD", "3C KH", "5S", "7S"], "T"),
}


#: Refuted by counting alone: with T's 2 and F's 2 turns these cards would need F's 5-9 -1 times.
COUNTED_OUT = (["TC", "6H 4H 4S 7S", "8H 3H TS"], "F")


def small(name: str) -> rules.Position:
    columns, to_move = SMALL[name] if name in SMALL else COUNTED_OUT
    return rules.parse("\n".join(columns) + "\n" + EMPTY * (13 - len(columns)) + f"to-move: {to_move}\n")


def sat_verdicts(position: rules.Position) -> set[str]:
    return {sat.solve(start, time_limit=20).verdict for start in explain_starts(position)}


def explain_starts(position: rules.Position) -> list[rules.Position]:
    return [position] if position.to_move else [position.start(p) for p in rules.PLAYERS]


def kernel_nodes(position: rules.Position, node_limit: int = 0) -> tuple[str, int]:
    columns = [list(c) for c in position.columns]
    verdict, _, nodes, _ = Kernel("twaalven", 1 << 16).solve(columns, 0 if position.to_move == "T" else 1, [], node_limit)
    return verdict, nodes


def test_fresh_deal_needs_every_pair_twice_and_doubles_once():
    need = pairs.required_pairs(rules.deal(1), "T")
    assert need == {t: 1 if t[0] == t[1] else 2 for player in rules.PLAYERS for t in rules.PAIRS[player]}
    assert pairs.required_pairs(rules.deal(1), "F") == need


def test_required_pairs_matches_the_kernel():
    """None exactly when the kernel refutes the position by counting alone (0 nodes); otherwise
    the counts fit the rank counts and each player's turns."""
    rng = random.Random(11)
    rejected = 0
    for _ in range(300):
        cards = rng.sample(range(52), 2 * rng.randrange(1, 9))
        columns = [[] for _ in range(13)]
        for card in cards:
            columns[rng.choice([c for c in range(13) if len(columns[c]) < 4])].append(card)
        position = rules.Position(tuple(map(tuple, columns)), rng.choice(rules.PLAYERS))
        need = pairs.required_pairs(position, position.to_move)
        verdict, nodes = kernel_nodes(position, node_limit=1)
        assert (nodes == 0) == (need is None), rules.format_position(position)
        if need is None:
            rejected += 1
            assert verdict == UNWINNABLE
        else:
            counts = rank_counts(position)
            assert all(sum(n * t.count(r) for t, n in need.items()) == counts[r] for r in range(1, 14))
            turns = pairs.turns_left(position, position.to_move)
            assert all(sum(need[t] for t in rules.PAIRS[p]) == turns[p] for p in rules.PLAYERS)
    assert 0 < rejected < 300


@pytest.mark.parametrize("name", SMALL)
def test_each_reason_on_a_small_position(name):
    position = small(name)
    found = explain.reasons(position)
    assert len(found) == 1, found
    assert rules.reference_solve(position) is None
    assert sat_verdicts(position) == {UNWINNABLE}
    assert ENGINE.short_reason(position) == found[0]


def test_a_position_refuted_by_counting_alone_gets_no_uncheckable_count():
    """The counting equations refute it at once (the kernel needs no node), but their verdict,
    "F would have to take 5-9 -1 times", is no reason a player can check: explain gives the
    CP-SAT core, whose cards anyone can try to take."""
    position = small("counted out")
    assert kernel_nodes(position) == (UNWINNABLE, 0) and rules.reference_solve(position) is None
    assert explain.reasons(position) == []
    explanation = ENGINE.explain(position, Budget(time_limit=20))
    assert explanation.method == "cp-sat core" and "-1" not in explanation.reasons[0]


def test_cross_column_and_lonely_card_name_cards_and_columns():
    (cross,) = explain.reasons(small("cross-column"))
    assert "7H, 7C, 7D" in cross and "column 2" in cross and "F's pair 7-7" in cross
    (lonely,) = explain.reasons(small("lonely card"))
    assert lonely.startswith("AS (col 1) can never be taken")
    assert "(KC, JS, JC) lies in column 1" in lonely


def test_last_turn_reason_names_the_bottom_cards():
    (text,) = explain.reasons(small("last turn"))
    assert "so T plays the last one" in text
    assert "JC (col 1), QD (col 2), 3S (col 3), TS (col 5)" in text and "make 12 (or Q+K)" in text


def test_cycle_reason_tells_who_waits_for_whom():
    (text,) = explain.reasons(small("cycle"))
    assert "JD (col 1) can only be taken with 3C (col 2), which lies beneath KH" in text
    assert "KH (col 2) can only be taken with QD (col 1), which lies beneath JD" in text


def test_seed_998_with_t_starting_is_lost_on_the_last_turn():
    deal = rules.deal(998)
    text = ENGINE.short_reason(deal.start("T"))
    assert text.startswith("T starts, so F plays the 26th and last turn")
    bottoms = [f"{card_name(column[0])} (col {c + 1})" for c, column in enumerate(deal.columns)]
    assert ", ".join(bottoms) in text and "make 14" in text
    assert sat.solve(deal.start("T"), time_limit=20).verdict == UNWINNABLE
    # Only one starter loses, so the deal itself has no reason.
    assert explain.reasons(deal) == [] and explain.reasons(deal.start("F")) == []


def test_deal_with_all_sixes_in_one_column():
    deal = rules.parse(SIXES_IN_ONE_COLUMN)
    assert explain.reasons(deal) == [
        "The 6s left (6S, 6H, 6D, 6C) all lie in column 4, so T's pair 6-6 can never be taken, "
        "and T must still take it once."
    ]
    assert sat_verdicts(deal) == {UNWINNABLE}


def test_deal_lost_on_the_last_turn_whoever_starts():
    deal = rules.parse(LOW_BOTTOMS)
    (text,) = explain.reasons(deal)
    assert text.startswith("Lost whoever starts. T starts, so F plays the 26th and last turn")
    assert "F starts, so T plays the 26th and last turn" in text
    assert sat_verdicts(deal) == {UNWINNABLE}


@pytest.mark.parametrize("seed", range(1, 6))
def test_no_reason_for_winnable_deals(seed):
    deal = rules.deal(seed)
    assert all(explain.reasons(start) == [] for start in [deal, *explain_starts(deal)])


def test_reasons_are_sound_on_partly_played_positions():
    """Every position a reason is given for is lost by the Rust DFS."""
    rng = random.Random(3)
    kernel = Kernel("twaalven", 1 << 18)
    explained = 0
    for seed in range(1, 120):
        position = rules.deal(seed).start(rng.choice(rules.PLAYERS))
        for _ in range(rng.randrange(4, 22)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.apply(rng.choice(moves))
        if explain.reasons(position):
            explained += 1
            columns = [list(c) for c in position.columns]
            assert kernel.solve(columns, 0 if position.to_move == "T" else 1)[0] == UNWINNABLE
    assert explained > 10


def test_explain_winnable_and_lost_deals():
    budget = Budget(time_limit=20)
    win = ENGINE.explain(rules.deal(1), budget)
    assert (win.verdict, win.method) == (WINNABLE, "none")
    assert "whoever starts" in win.reasons[0] and "winnable solve" in win.reasons[0]
    only_f = ENGINE.explain(rules.deal(998), budget)
    assert "only with F starting" in only_f.reasons[0]
    lost = ENGINE.explain(rules.deal(998).start("T"), budget)
    assert (lost.verdict, lost.method) == (UNWINNABLE, "rules")
    assert lost.to_json() == {"game": "twaalven", "verdict": UNWINNABLE, "reasons": lost.reasons, "method": "rules",
                              "proofs": []}


def test_explain_of_a_deal_one_starter_wins_names_how_the_other_start_was_refuted():
    """`method` says how the losing start was refuted (README: `rules` for short reasons, `search`
    for the exhaustive search's word alone), as it does for an unwinnable deal."""
    budget = Budget(time_limit=20)
    by_rule = ENGINE.explain(rules.deal(998), budget)
    assert (by_rule.verdict, by_rule.method) == (WINNABLE, "rules")
    assert by_rule.reasons[1].startswith("With T starting it is lost: ")
    # Seed 2666: only F starting wins, and T's start has no short reason.
    by_search = ENGINE.explain(rules.deal(2666), budget)
    assert by_search.verdict == WINNABLE and by_search.reasons == [
        "Winnable only with F starting; `winnable solve` prints a winning line.",
        "With T starting it is lost; the exhaustive search refuted every line.",
    ]
    assert by_search.method == "search"


def test_explain_falls_back_to_an_unsat_core():
    # Lost with no short reason: found by random play from deal 405.
    position = rules.parse("9D\n6H 2H 2D\n-\n-\n-\n-\n5S\n6C\n-\n-\nTS 7S\n-\n7D QS\nto-move: F\n")
    assert explain.reasons(position) == []
    assert rules.reference_solve(position) is None
    result = ENGINE.explain(position, Budget(time_limit=20))
    assert (result.verdict, result.method) == (UNWINNABLE, "cp-sat core")
    assert result.reasons == ["A win takes every card, but no line of play takes 6H (col 2, bottom); CP-SAT proves it."]
