"""Standard cards and the seeded shuffle shared by every game (docs/rules.md, "Cards, deals and seeds").

A card is an int id `suit * 13 + rank - 1` with suits S H D C and ranks A=1 … K=13, so the
unshuffled deck is `range(52)` in the order `AS 2S … KS AH … KC`.
"""

from __future__ import annotations

import numbers

from .errors import IllegalPositionError, ParseError, WinnableError, quoted

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
DECK_SIZE = 52

MASK64 = (1 << 64) - 1


def rank(card: int) -> int:
    """Rank value of a card, A=1 … K=13."""
    return card % 13 + 1


def card_name(card: int) -> str:
    """The card in notation: rank then suit, e.g. `TS`, `7H`."""
    return RANKS[card % 13] + SUITS[card // 13]


def check_card_ids(cards, deck_size: int = DECK_SIZE) -> None:
    """IllegalPositionError for anything in `cards` that is not a card id 0 to `deck_size` - 1:
    a position built in code (`dataclasses.replace`) with one failed deep in naming it or in a
    kernel (an IndexError, an OverflowError, a plain ValueError)."""
    for card in cards:
        if not (isinstance(card, int) and not isinstance(card, bool) and 0 <= card < deck_size):
            raise IllegalPositionError(f"{card!r} is not a card: the deck's cards are the ids 0 to {deck_size - 1} "
                                       "(positions come from deal and parse)")


def parse_card(text: str, line: int | None = None) -> int:
    """A card id from `7H`, `TS`, `10S` or `7♥` (or `7♥️`, the emoji form a phone or an emoji
    picker types: the symbol and U+FE0F); ParseError quoting the text otherwise."""
    token = text.strip().upper()
    for symbol, letter in SUIT_SYMBOLS.items():
        token = token.replace(symbol + "\ufe0f", letter).replace(symbol, letter)
    if token.startswith("10"):
        token = "T" + token[2:]
    if len(token) != 2 or token[0] not in RANKS or token[1] not in SUITS:
        raise ParseError(f"{quoted(text)} is not a card (rank A23456789TJQK or 10, then suit SHDC)", line)
    return SUITS.index(token[1]) * 13 + RANKS.index(token[0])


class SplitMix64:
    """The PRNG of docs/rules.md; the Rust kernel has the identical generator."""

    def __init__(self, seed: int):
        self.state = int(seed) & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def shuffled(items: list, seed: int) -> list:
    """A copy of `items` shuffled by Fisher–Yates from the end, driven by SplitMix64(seed)."""
    if not (isinstance(seed, numbers.Integral) and 0 <= seed <= MASK64):  # numpy's integers too
        raise WinnableError(f"seed {seed!r} is not an unsigned 64-bit integer")
    return shuffle_with(items, SplitMix64(seed))


def shuffle_with(items: list, rng: SplitMix64) -> list:
    """A copy of `items` shuffled by Fisher–Yates from the end with `rng`, which goes on from
    where it is (a deal that shuffles twice from one seed continues the same generator)."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = rng.next() % (i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def shuffled_deck(seed: int) -> list[int]:
    """The 52-card deck shuffled by `seed`."""
    return shuffled(list(range(DECK_SIZE)), seed)
