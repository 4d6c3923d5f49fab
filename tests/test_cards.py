"""Cards, SplitMix64 and the seeded shuffle (docs/rules.md, "Cards, deals and seeds").

The literal deals below were computed once from the code and written in by hand: they pin the
shuffle forever, so any change to the PRNG, the shuffle or the deal layout fails here.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import twaalven
from puzzles.cards import DECK_SIZE, SplitMix64, card_name, parse_card, rank, shuffled, shuffled_deck
from puzzles.errors import ParseError, WinnableError
from solver import _native

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def names(cards) -> list[str]:
    return [card_name(c) for c in cards]


# --- parse_card / card_name -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("7H", "7H"),
        ("TS", "TS"),
        ("10S", "TS"),
        ("10s", "TS"),
        ("7♥", "7H"),
        ("K♠", "KS"),
        ("10♦", "TD"),
        ("a♣", "AC"),
        ("7\u2665\ufe0f", "7H"),  # the emoji form (♥️) that phones and emoji pickers type
        ("10\u2660\ufe0f", "TS"),
        ("7h", "7H"),
        ("ts", "TS"),
        ("qd", "QD"),
        ("  jc ", "JC"),
        ("AS", "AS"),
        ("KC", "KC"),
    ],
)
def test_parse_card_accepts(text, expected):
    assert card_name(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["1X", "ZZ", "", "7", "7HH", "11S", "0S", "1S", "7X", "H7", "10", "S", "♥7", "7\ufe0f"])
def test_parse_card_rejects_with_the_text_quoted(text):
    with pytest.raises(ParseError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)
    assert info.value.line is None
    assert isinstance(info.value, ValueError) and isinstance(info.value, WinnableError)


def test_parse_card_error_carries_the_line():
    with pytest.raises(ParseError) as info:
        parse_card("1X", line=7)
    assert info.value.line == 7
    assert str(info.value).startswith("line 7: ")
    assert "'1X'" in str(info.value)


def test_card_ids_follow_the_unshuffled_deck_order():
    expected = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    assert [card_name(c) for c in range(DECK_SIZE)] == expected
    assert card_name(0) == "AS" and card_name(9) == "TS" and card_name(51) == "KC"


def test_card_name_round_trip_all_52():
    seen = set()
    for card in range(DECK_SIZE):
        name = card_name(card)
        assert len(name) == 2
        assert parse_card(name) == card
        assert parse_card(name.lower()) == card
        if name[0] == "T":
            assert parse_card("10" + name[1]) == card
        seen.add(name)
    assert len(seen) == DECK_SIZE


def test_rank_values():
    assert [rank(parse_card(r + "D")) for r in "A23456789TJQK"] == list(range(1, 14))


# --- SplitMix64 and the shuffle ---------------------------------------------------------------


def test_splitmix64_reference_outputs_seed_0():
    rng = SplitMix64(0)
    assert rng.next() == 0xE220A8397B1DCDAF
    assert rng.next() == 0x6E789E6AA1B965F4


def _spec_shuffle(n: int, seed: int) -> list[int]:
    """docs/rules.md transcribed independently of puzzles.cards, as an oracle for the pins below."""
    mask = (1 << 64) - 1
    state = seed
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        j = z % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


@settings(max_examples=200, deadline=None)
@given(SEEDS)
def test_python_shuffle_matches_rust_and_spec(seed):
    deck = shuffled_deck(seed)
    assert deck == list(_native.shuffled(seed, 52))
    assert deck == _spec_shuffle(52, seed)
    assert sorted(deck) == list(range(DECK_SIZE))


@settings(max_examples=100, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=120))
def test_shuffle_of_any_length_matches_rust(seed, n):
    assert shuffled(list(range(n)), seed) == list(_native.shuffled(seed, n))


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_python_deal_matches_rust_deal(seed):
    position = twaalven.deal(seed)
    assert position.to_move is None
    assert [list(c) for c in position.columns] == [list(c) for c in _native.deal("twaalven", seed)]


def test_shuffle_rejects_seeds_outside_u64():
    """Bad input, so a WinnableError (docs/api.md): `api.deal(game, -1)` is refused as one."""
    with pytest.raises(WinnableError, match="seed -1 is not an unsigned 64-bit integer"):
        shuffled_deck(-1)
    with pytest.raises(WinnableError):
        shuffled_deck(2**64)
    assert shuffled_deck(2**64 - 1) == list(_native.shuffled(2**64 - 1, 52))


@pytest.mark.parametrize("seed", [1.5, "3", None])
def test_shuffle_rejects_a_seed_that_is_not_a_whole_number(seed):
    """`api.deal(game, 1.5)` failed deep in the generator with a TypeError about '&'."""
    with pytest.raises(WinnableError, match=f"seed {seed!r} is not an unsigned 64-bit integer"):
        shuffled_deck(seed)


def test_a_numpy_integer_seed_deals_as_the_same_int():
    """A seed from numpy (np.arange, say) is a whole number: it failed with an OverflowError."""
    numpy = pytest.importorskip("numpy")
    assert shuffled_deck(numpy.int64(3)) == shuffled_deck(3)


def test_shuffle_does_not_modify_its_input():
    items = list(range(10))
    shuffled(items, 3)
    assert items == list(range(10))


# --- pinned deals (computed once; must never change) ------------------------------------------

PINNED_DECKS = {
    0: "8C JD 9S 2C 2H QH 6C TS 3H AS JS 7S 9D 8S QC KD 5D 2S 3D 5S AD 6S 4C TH 5H 8D "
       "8H AH QD TC QS JH 3C 4H 2D 9H 3S KH AC 7C 9C 7H JC 6D KC 4S 7D 5C 6H 4D KS TD",
    1: "7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S 2H JD 5D 7D 4D 2S AH 6C KS KD TD TC JC "
       "TH 8C QS 4C 6S 7S AC 5S AD KC 6D QC QD QH 9H 3H 3C AS 4S 2D 8S TS 3D 2C 9D 7C",
    7: "4H 5S JD 3C 4D TD KC 6H 4C 7D 9H 2S KH JC TS 2D 7S 4S 7C 2C TC 9C 3S QD 2H 8H "
       "6C AS 9S JH 6D 3H 3D 8D AD KD 6S AC 7H 5D 9D 5C QC AH KS TH 8S JS 5H 8C QH QS",
    2**64 - 1: "JS KC 7C 4S AH JD 5H 2D AD 7H 6H 6C 4H AC 4C 7D 3H 2H 9D QD 8H 3C 5C 9C AS 8C "
               "QH TH 7S QC 9S 4D JH KD KS 6D 9H 8D 8S TD 6S KH 2C 3D QS JC 3S 5D TC 2S TS 5S",
}

# (first column bottom-first, the 13 tops from column 1 to 13)
PINNED_DEALS = {
    0: ("8C 8S 8H 7C", "7C 9C 7H JC 6D KC 4S 7D 5C 6H 4D KS TD"),
    1: ("7H 2H TH QH", "QH 9H 3H 3C AS 4S 2D 8S TS 3D 2C 9D 7C"),
    7: ("4H JC 6C 5D", "5D 9D 5C QC AH KS TH 8S JS 5H 8C QH QS"),
    2**64 - 1: ("JS AC QH TD", "TD 6S KH 2C 3D QS JC 3S 5D TC 2S TS 5S"),
}


@pytest.mark.parametrize("seed", sorted(PINNED_DECKS))
def test_pinned_shuffled_decks(seed):
    expected = PINNED_DECKS[seed].split()
    assert names(shuffled_deck(seed)) == expected
    assert names(_native.shuffled(seed, 52)) == expected
    assert names(_spec_shuffle(52, seed)) == expected


@pytest.mark.parametrize("seed", sorted(PINNED_DEALS))
def test_pinned_twaalven_deals(seed):
    first_column, tops = PINNED_DEALS[seed]
    for columns in (twaalven.deal(seed).columns, _native.deal("twaalven", seed)):
        assert len(columns) == 13 and all(len(c) == 4 for c in columns)
        assert names(columns[0]) == first_column.split()
        assert names(c[-1] for c in columns) == tops.split()


@pytest.mark.parametrize("seed", sorted(PINNED_DECKS))
def test_deal_layout_card_k_to_column_k_mod_13_depth_k_div_13(seed):
    deck = PINNED_DECKS[seed].split()
    columns = twaalven.deal(seed).columns
    for k, name in enumerate(deck):
        assert card_name(columns[k % 13][k // 13]) == name
