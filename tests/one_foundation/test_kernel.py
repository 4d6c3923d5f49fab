"""The All in a Row and Black Hole engines (Rust kernel with its rank-walk prune) against the
plain exhaustive search of the reference rules, and the short reasons of
solver/games/one_foundation/reasons.py: each must hold only for positions that are lost."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from puzzles.cards import parse_card, rank
from puzzles.lines import reference_solve, replay
from puzzles.one_foundation import ALL_IN_A_ROW, BLACK_HOLE, Move, Position
from solver.games.one_foundation import reasons as explain
from solver._native import Kernel
from solver.registry import GAMES as REGISTRY
from solver.result import UNKNOWN, UNWINNABLE, WINNABLE, Budget

GAMES = [ALL_IN_A_ROW, BLACK_HOLE]


def engine(game):
    return REGISTRY[game.NAME].engine


def decide(game, position: Position) -> tuple[str, list[Move]]:
    verdict, line, _ = engine(game).decide(position, Budget(time_limit=None))
    return verdict, line


def reference_verdict(position: Position) -> str:
    line = reference_solve(position)
    if line is None:
        return UNWINNABLE
    assert replay(position, line).is_won()
    return WINNABLE


def assert_engine_agrees(game, position: Position) -> str:
    """Engine verdict == reference verdict; an engine win replays to a win. Returns the verdict."""
    expected = reference_verdict(position)
    verdict, line = decide(game, position)
    assert verdict == expected, game.format_position(position)
    if verdict == WINNABLE:
        assert len(line) == position.remaining and replay(position, line).is_won()
    else:
        assert line == []
    return verdict


# --- positions to test on -----------------------------------------------------------------------


def partly_played(game, seed: int, low: int = 10, high: int = 16) -> Position:
    """From the seeded deal, follow a winning line for a while (if there is one), then play
    random legal moves until `low..high` cards remain or no move is left."""
    rng = random.Random(seed)
    position = game.deal(seed)
    target = rng.randrange(low, high + 1)
    _, line = decide(game, position)
    for move in line[: max(0, position.remaining - target - rng.randrange(0, 8))]:
        position = position.apply(move)
    while position.remaining > target and (moves := position.legal_moves()):
        position = position.apply(rng.choice(moves))
    return position


def random_layout(game, rng: random.Random) -> Position:
    """Random cards in random columns under a random foundation top (All in a Row: sometimes an
    empty foundation). Only the top matters to play, so the foundation lists just that card."""
    top = None if game is ALL_IN_A_ROW and rng.random() < 0.2 else rng.randrange(52)
    cards = rng.sample([c for c in range(52) if c != top], rng.randrange(3, 14))
    return stack(game, rng, cards, top)


def constructed(game, rng: random.Random) -> tuple[Position, bool]:
    """A position built backwards from a random walk of cards, each one rank from the last, so
    it is winnable; half the time spoiled by swapping two cards (then either verdict)."""
    top = rng.randrange(52)
    line, left = [], set(range(52)) - {top}
    for _ in range(rng.randrange(3, 15)):
        last = line[-1] if line else top
        options = sorted(c for c in left if abs(rank(c) - rank(last)) in (1, 12))
        if not options:
            break
        line.append(rng.choice(options))
        left.discard(line[-1])
    position = stack(game, rng, line[::-1], top)  # the last card played goes in first
    if rng.random() < 0.5:
        return position, True
    columns = [list(column) for column in position.columns]
    slots = [(c, d) for c, column in enumerate(columns) for d in range(len(column))]
    (c1, d1), (c2, d2) = rng.sample(slots, 2)
    columns[c1][d1], columns[c2][d2] = columns[c2][d2], columns[c1][d1]
    return Position(tuple(map(tuple, columns)), position.foundation), False


def stack(game, rng: random.Random, cards: list[int], top: int | None) -> Position:
    """Pushes the cards one by one onto random columns that still have room."""
    columns: list[list[int]] = [[] for _ in range(game.COLUMNS)]
    for card in cards:
        columns[rng.choice([c for c in range(game.COLUMNS) if len(columns[c]) < game.DEPTH])].append(card)
    return Position(tuple(map(tuple, columns)), () if top is None else (top,))


# --- the kernel against the reference search ----------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_partly_played_deals_match_the_reference(game):
    verdicts = Counter()
    for seed in range(1, 41):
        position = partly_played(game, seed)
        verdicts[assert_engine_agrees(game, position)] += 1
        for move in position.legal_moves():  # as `analyse` asks about them
            verdicts[assert_engine_agrees(game, position.apply(move))] += 1
    assert verdicts[WINNABLE] >= 10 and verdicts[UNWINNABLE] >= 10, verdicts


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_random_and_constructed_layouts_match_the_reference(game):
    rng = random.Random(game.NAME)
    verdicts = Counter()
    for _ in range(300):
        position, known_winnable = constructed(game, rng)
        verdict = assert_engine_agrees(game, position)
        verdicts[verdict] += 1
        if known_winnable:
            assert verdict == WINNABLE
        verdicts[assert_engine_agrees(game, random_layout(game, rng))] += 1
    assert verdicts[WINNABLE] >= 100 and verdicts[UNWINNABLE] >= 100, verdicts


def test_empty_foundation_takes_any_first_card_in_the_kernel():
    # Only 5H, 4C, 3D wins: starting with the 4C on top of the taller column strands a card.
    winnable = Position(((parse_card("3D"), parse_card("4C")), (parse_card("5H"),)) + ((),) * 11)
    assert engine(ALL_IN_A_ROW).to_kernel(winnable)[2] == [0]
    verdict, line = decide(ALL_IN_A_ROW, winnable)
    assert verdict == WINNABLE and [str(m) for m in line] == ["5H (col 2)", "4C (col 1)", "3D (col 1)"]
    # A 9S besides: no first card leads through all four.
    lost = Position(((parse_card("3D"), parse_card("4C")), (parse_card("5H"),), (parse_card("9S"),)) + ((),) * 10)
    assert reference_verdict(lost) == UNWINNABLE and decide(ALL_IN_A_ROW, lost)[0] == UNWINNABLE


@pytest.mark.parametrize("seed, verdict, deal_alone", [(104, WINNABLE, 1_232_449), (267, UNWINNABLE, 485_369)])
def test_the_mirrored_deal_decides_when_it_is_quicker(seed, verdict, deal_alone):
    """All in a Row deals are searched alongside their mirror image (columns upside down, won by
    the same line backwards). On these seeds the deal alone takes `deal_alone` nodes and the
    mirror about 1% of that, so a small answer can only have come from the mirror; its line must
    still replay forwards as a win."""
    result = engine(ALL_IN_A_ROW).solve(ALL_IN_A_ROW.deal(seed))
    assert result.verdict == verdict and result.stats.nodes < deal_alone // 10
    if verdict == WINNABLE:
        assert replay(ALL_IN_A_ROW.deal(seed), result.solution).is_won()


# --- budgets ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game, seed", [(ALL_IN_A_ROW, 10), (ALL_IN_A_ROW, 6), (BLACK_HOLE, 6), (BLACK_HOLE, 12)])
def test_node_limits_give_unknown_or_the_right_verdict(game, seed):
    deal = game.deal(seed)
    columns, _, tops = engine(game).to_kernel(deal)
    truth, _, needed, _ = Kernel(game.NAME, 1 << 16).solve(columns, 0, tops)
    assert truth != UNKNOWN and needed > 100
    for limit in [1, 2, 10, 100, needed // 2, needed, needed + 1]:
        verdict, pairs, nodes, _ = Kernel(game.NAME, 1 << 16).solve(columns, 0, tops, limit)
        assert verdict in (UNKNOWN, truth) and nodes <= limit
        if limit > needed:
            assert verdict == truth
        budget = Budget(node_limit=limit, time_limit=None)
        verdict, line, stats = engine(game).decide(deal, budget)
        assert verdict in (UNKNOWN, truth) and budget.nodes_used == stats.nodes <= limit
        if verdict == WINNABLE:
            assert replay(deal, line).is_won()
    assert engine(game).solve(deal, Budget(node_limit=1, time_limit=None)).verdict == UNKNOWN


# --- known verdicts of seeded deals -------------------------------------------------------------

#: Computed once with the engine (`winnable solve`) and written in.
UNWINNABLE_SEEDS = {ALL_IN_A_ROW: {4, 6, 7, 9, 11, 17, 18}, BLACK_HOLE: {12, 15, 17}}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_known_verdicts_of_seeds_1_to_20(game):
    for seed in range(1, 21):
        deal = game.deal(seed)
        result = engine(game).solve(deal, Budget(time_limit=None))
        expected = UNWINNABLE if seed in UNWINNABLE_SEEDS[game] else WINNABLE
        assert result.verdict == expected, seed
        if expected == WINNABLE:
            assert len(result.solution) == deal.remaining and replay(deal, result.solution).is_won()
            assert result.explanation is None
        else:
            found = explain.reasons(deal)
            assert result.solution == [] and result.explanation == (found[0] if found else None)


# --- short reasons ------------------------------------------------------------------------------

FOUNDATION_BH = ("foundation: AS 2S 3S 4H 5S 4D 5C 4C 5H 6S 7H 8H 9C 8D 7D 6H 5D 4S 3D 2D AC KH QS JS TD 9S TS JD "
                 "TC JH QD KS AH 2H")

#: Positions reached by play from seeded deals, each lost for the reason named.
FIXTURES = {
    "no move": (BLACK_HOLE, "-\n-\n-\n6S\n-\n-\n-\n-\n-\n-\n-\n7S\n-\n-\n-\n5C\n-\n"
                + "foundation: AS 2C AD 2D AC KS QD KH QC JH TC 9C TD JD QH KD QS KC AH 2H 3C 4C 3D 2S 3H 4D 5S "
                "6D 7D 6H 5D 4S 3S 4H 5H 6C 7C 8C 9H 8H 9D 8S 7H 8D 9S TS JC TH JS\n"),
    "stranded below": (BLACK_HOLE, "-\n-\n-\n7S\n" + "-\n" * 12 + "6D 3H\n"
                       + "foundation: AS 2S 3S 4H 5S 4D 5C 4C 5H 6S 7H 8H 9C 8D 7D 6H 5D 4S 3D 2D AC KH QS JS TD "
                       "9S TS JD TC JH QD KS AH 2H 3C 2C AD KC QC KD QH JC TH 9D 8C 9H 8S 7C 6C\n"),
    "stranded above": (BLACK_HOLE, "-\n" * 5 + "2D\n" + "-\n" * 10 + "3S KC\n"
                       + "foundation: AS 2C AH KH QD JC TD 9C 8C 7C 8S 7D 6D 7S 6C 5S 4H 3H 2S AC KS QS JH TH JD "
                       "QH KD AD 2H 3D 4C 3C 4S 5C 6H 5D 4D 5H 6S 7H 8D 9S TC 9D 8H 9H TS JS QC\n"),
    "out of reach": (BLACK_HOLE, "8H\n9S\n-\n-\n-\n-\n-\n-\nTC\n-\n-\n-\nJC\n-\n-\n4S 3C\n-\n"
                     + "foundation: AS KS QS KH AH 2H 3S 4C 5D 4D 5S 6S 7C 8D 7S 6D 5H 6H 7D 8C 9D TD 9H TS JH "
                     "QC JD QH KC AD 2S 3H 2C 3D 2D AC KD QD JS TH 9C 8S 7H 6C 5C 4H\n"),
    "one side only": (BLACK_HOLE, "-\n-\nJC\n-\n-\n-\n-\n5D\n-\n-\n-\n-\n4D\n-\n-\n-\n-\n"
                      + "foundation: AS KH QS KS QH JS TH 9D TC JH QC KD AC 2S AD 2D 3H 2C 3C 4S 5H 6D 5C 6S 7S 6H "
                      "7C 8H 7H 8C 9S 8D 9C TD JD TS 9H 8S 7D 6C 5S 4H 3S 4C 3D 2H AH KC QD\n"),
    "too few before": (ALL_IN_A_ROW, "-\n4D AC 4S\n-\n-\n-\n5S KS\nQS JS\n3C 5D\n-\n-\nJH 3H\n9H\n8S TC 2H\n"
                       "foundation: 6D 5H 4C 3S 2D AH 2C AS KC QD KD QC JD TD 9D TS 9S 8C 7D 6C 7H 8D 9C TH JC QH "
                       "KH AD 2S 3D 4H 5C 6H 7C 6S 7S 8H\n"),
    "too few after": (BLACK_HOLE, "KC\n6C\n7C\n7S\n-\n-\n9H\n-\n9D JC QC\nAD\nKD 3C\n-\n-\n2C\n8S 8C TH\nQH\n6D 3H\n"
                  + FOUNDATION_BH + "\n"),
    "neighbour places": (BLACK_HOLE, "KC\n6C\n7C\n7S\n-\n-\n9H\n-\n9D JC QC\nAD\nKD\n-\n-\n2C\n8S 8C TH\nQH\n6D 3H\n"
                         + FOUNDATION_BH + " 3C\n"),
}


def fixture(name: str) -> tuple[object, Position]:
    game, source = FIXTURES[name]
    position = game.parse(source)
    assert game.format_position(position) == source
    return game, position


@pytest.mark.parametrize("name", FIXTURES)
def test_each_fixture_is_lost_with_a_reason(name):
    game, position = fixture(name)
    found = explain.reasons(position)
    assert found
    assert reference_solve(position) is None
    assert decide(game, position)[0] == UNWINNABLE
    result = engine(game).explain(position, Budget(time_limit=None))
    assert (result.verdict, result.method, result.reasons) == (UNWINNABLE, "rules", found)
    assert engine(game).solve(position).explanation == found[0]


def test_no_move_reason_names_the_top_cards():
    _, position = fixture("no move")
    assert explain.reasons(position) == [
        "No top card fits the foundation's JS: the top cards are 6S (col 4), 7S (col 12), 5C (col 16), and none "
        "is a 10 or a queen."
    ]


def test_stranded_card_beneath_its_neighbours():
    _, position = fixture("stranded below")
    found = explain.reasons(position)
    assert found[0] == (
        "3H (col 17) can never be played: it can only go right after a 2 or a 4, and no 2s or 4s are left."
    )
    assert found[1].startswith("The foundation is on 6C and no 5s or 8s are left, so the 3s can never be reached")
    assert found[2].startswith("The 3s cannot all be played: each 3 goes right after a 2 or a 4")


def test_stranded_card_above_its_neighbours():
    _, position = fixture("stranded above")
    found = explain.reasons(position)
    assert found[0] == (
        "KC (col 17) can never be played: the card played right after it must be an ace or a queen, and no "
        "aces or queens are left; so it would have to be the last card played, but 3S lies beneath it."
    )


def black_hole(*columns: str, top: str) -> Position:
    """A Black Hole layout: columns from strings of card names (bottom first), the rest empty."""
    cols = [tuple(parse_card(name) for name in column.split()) for column in columns]
    return Position(tuple(cols + [()] * (17 - len(cols))), (parse_card(top),))


def test_stranded_cards_with_neighbours_in_their_own_column():
    # 8D needs a 7 or 9 right before it: the only one, 7H, lies beneath it. 7H needs a 6 or 8
    # right after it, as it cannot be last (4S lies under it): the only one lies above it.
    position = black_hole("4S 7H 8D", "3D", top="2H")
    assert explain.reasons(position)[:2] == [
        "7H (col 1) can never be played: the card played right after it must be a 6 or an 8, and all the 6s "
        "and 8s left (8D) lie above it in column 1; so it would have to be the last card played, but 4S lies "
        "beneath it.",
        "8D (col 1) can never be played: it can only go right after a 7 or a 9, and all the 7s and 9s left (7H) "
        "lie beneath it in column 1.",
    ]
    assert reference_solve(position) is None
    # With the 7H a bottom card it can be last, and the 9C gives the 8D a card to follow.
    winnable = black_hole("7H 8D", "9C", top="TS")
    assert explain.reasons(winnable) == [] and reference_solve(winnable) is not None


def test_covered_card_cannot_use_the_foundation_top():
    # 7S fits the 6D on top of the foundation, but lies under the KC; the only 6 or 8 left is
    # beneath it.
    position = black_hole("8H 7S KC", "QC", "5C", top="6D")
    assert explain.reasons(position)[0] == (
        "7S (col 1) can never be played: it can only go right after a 6 or an 8, and all the 6s and 8s left (8H) "
        "lie beneath it in column 1; the foundation's 6D is one, but 7S is covered, so it cannot go on it next."
    )
    assert reference_solve(position) is None


def test_ranks_out_of_reach():
    _, position = fixture("out of reach")
    assert explain.reasons(position)[0] == (
        "The foundation is on 4H and no 2s or 5s are left, so the 8s to jacks can never be reached: the "
        "foundation moves one rank up or down at a time (K next to A), and only onto a rank that still has "
        "cards. Out of reach: 8H (col 1), 9S (col 2), TC (col 9), JC (col 13)."
    )


def test_no_cards_of_the_foundation_rank_keep_the_walk_on_one_side():
    _, position = fixture("one side only")
    assert explain.reasons(position)[0] == (
        "The foundation is on QD and no queens are left, so it can never come back to that rank, and no 10s "
        "or kings are left either: the foundation moves one rank up or down at a time (K next to A), and only "
        "onto a rank that still has cards. So it cannot go up at all, as no kings are left; going down it stays "
        "among the jacks, and 5D (col 8), 4D (col 13) stay out of reach."
    )


def test_too_few_cards_to_come_before():
    _, position = fixture("too few before")
    (text,) = explain.reasons(position)
    assert text.startswith("The 3s and 5s cannot all be played: each 3 or 5 goes right after a 2, a 4 or a 6")
    assert "There are 2 threes and 2 fives (5S (col 6), 3C (col 8), 5D (col 8), 3H (col 11)) left" in text
    assert "but only 1 two and 2 fours (4D (col 2), 4S (col 2), 2H (col 13)), so at most 3 of them" in text


def test_the_last_card_is_a_bottom_card():
    _, position = fixture("too few after")
    (text,) = explain.reasons(position)
    assert text.startswith(
        "The 3s cannot all be played: each 3 except the last card played goes right before a 2 or a 4"
    )
    assert "There are 2 threes (3C (col 11), 3H (col 17)) left but only 1 two (2C (col 14))" in text
    assert text.endswith("no bottom card (KC (col 1), 6C (col 2), 7C (col 3), 7S (col 4), 9H (col 7), 9D (col 9), "
                         "AD (col 10), KD (col 11), 2C (col 14), 8S (col 15), QH (col 16), 6D (col 17)) is a 3.")


def test_neighbour_places_when_neither_half_suffices():
    """The 3H can follow the 2C, and the 2C can follow it: neither half of the count fails. But
    the 3C on top also needs the 2C next to it, so the order is 3C, 2C, 3H with the 3H last,
    and the 3H is no bottom card (the 6D lies under it)."""
    _, position = fixture("neighbour places")
    (text,) = explain.reasons(position)
    assert "There is 1 three (3H (col 17)) left besides the foundation's 3C; they need 3 such neighbour places" in text
    assert "But there is only 1 two (2C (col 14)), each next to at most two cards: 2 places at most." in text


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_no_reason_for_winnable_deals_and_the_fresh_all_in_a_row_deal(game):
    for seed in range(1, 21):
        if seed not in UNWINNABLE_SEEDS[game]:
            assert explain.reasons(game.deal(seed)) == []
    assert explain.reasons(game.parse(game.format_position(game.deal(1)))) == []


def kind(text: str) -> str:
    for phrase, name in [
        ("No top card fits", "no move"), ("it can only go right after", "stranded below"),
        ("the card played right after it must be", "stranded above"), ("never come back", "one side only"),
        ("can never be reached", "out of reach"), ("no card has two cards right after it", "too few before"),
        ("no card has two cards right before it", "too few after"), ("neighbour places", "neighbour places"),
    ]:
        if phrase in text:
            return name
    raise AssertionError(f"unknown kind of reason: {text}")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_reasons_are_sound_on_random_layouts(game):
    """No reason for a winnable position; the brute-force search confirms the rest."""
    rng = random.Random(7 + len(game.NAME))
    kinds = Counter()
    for _ in range(600):
        for position in (random_layout(game, rng), constructed(game, rng)[0]):
            found = explain.reasons(position)
            kinds.update(kind(text) for text in found)
            assert not found or reference_verdict(position) == UNWINNABLE, (game.format_position(position), found)
    assert set(kinds) == set(FIXTURES), kinds  # every kind of reason is tried


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_reasons_are_sound_along_random_games(game):
    """Every position of random games from seeded deals: a reason only when the kernel says lost."""
    rng = random.Random(game.NAME)
    explained = Counter()
    for seed in range(100, 160):
        position = game.deal(seed)
        while position.legal_moves():
            found = explain.reasons(position)
            if found:
                explained[kind(found[0])] += 1
                assert decide(game, position)[0] == UNWINNABLE, (game.format_position(position), found)
            position = position.apply(rng.choice(position.legal_moves()))
        if not position.is_won():
            (text,) = explain.reasons(position)
            assert text.startswith("No top card fits the foundation's")
    assert sum(explained.values()) >= 20, explained


def test_analyse_labels_match_the_reference():
    for seed in range(1, 8):
        position = partly_played(BLACK_HOLE, seed, 12, 14)
        result = engine(BLACK_HOLE).analyse(position, Budget(time_limit=None))
        assert [v.move for v in result.moves] == position.legal_moves()
        for verdict in result.moves:
            after = position.apply(verdict.move)
            expected = "keeps winnable" if reference_solve(after) is not None else "loses"
            assert verdict.verdict == expected
            assert verdict.reason is None or expected == "loses"
            if verdict.reason:
                assert verdict.reason == explain.reasons(after)[0]
