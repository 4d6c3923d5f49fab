"""Why an All in a Row or Black Hole position cannot be won, in sentences a player can check.

Every card goes onto the foundation right after a card one rank away (K and A adjacent), so the
order of play, from the foundation's top card on, is a walk of ranks. The reasons, cheapest
first, each of which alone proves the position lost:

1. no top card fits the foundation now;
2. a card that can never be played: every card that could come right before it lies beneath it,
   or every card that could come right after it lies above it while cards lie beneath it;
3. ranks cut off from the foundation by a rank with no cards left (the walk cannot pass it);
4. too few cards of the neighbouring ranks to sit next to every card of some ranks in the order
   of play (the counting behind the kernel's Euler-trail prune `rank_walk_exists`); the last
   card played is a bottom card of its column, which sharpens the count.

Reasons 3 and 4 need the foundation's top rank, so they are not looked for on an empty
foundation (a fresh All in a Row deal, where they never apply anyway).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from puzzles.cards import card_name, rank
from puzzles.one_foundation import Position

from ...words import a_rank, at, cards_at, listed, rank_counts, ranks_word

RANK_NAMES = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")


def up(r: int) -> int:
    """The rank one above `r`, A after K."""
    return r % 13 + 1


def down(r: int) -> int:
    """The rank one below `r`, K before A."""
    return (r + 11) % 13 + 1


def neighbours(ranks) -> list[int]:
    """The ranks one away from any of `ranks`, in rank order."""
    return sorted({n for r in ranks for n in (down(r), up(r))})


def _independent(ranks: tuple[int, ...]) -> bool:
    return not any(up(a) == b or up(b) == a for a, b in combinations(ranks, 2))


class RankSet(NamedTuple):
    """Ranks no two of which are one apart (K and A are), the ranks one away from them, and
    both as bit masks (bit r for rank r)."""

    ranks: tuple[int, ...]
    near: tuple[int, ...]
    mask: int
    near_mask: int


def _rank_set(ranks: tuple[int, ...]) -> RankSet:
    near = tuple(neighbours(ranks))
    return RankSet(ranks, near, sum(1 << r for r in ranks), sum(1 << r for r in near))


#: Every non-empty set of ranks no two of which are one apart, smallest first.
INDEPENDENT_RANKS = [
    _rank_set(ranks) for size in range(1, 7) for ranks in combinations(range(1, 14), size) if _independent(ranks)
]


# --- words -----------------------------------------------------------------------------------

def counted(n: int, r: int) -> str:
    """'4 sevens', '1 six', 'no eights'."""
    name = RANK_NAMES[r]
    plural = name + ("es" if name.endswith("x") else "s")
    return f"{n} {name}" if n == 1 else f"{n or 'no'} {plural}"


def any_of(ranks) -> str:
    """'a 6 or an 8'."""
    return listed([a_rank(r) for r in ranks], "or")


def all_of(ranks, joiner: str = "and") -> str:
    """'6s and 8s'."""
    return listed([ranks_word(r) for r in ranks], joiner)


# --- what the reasons look at ----------------------------------------------------------------



def cards_of(position: Position, ranks) -> list[int]:
    """The remaining cards whose rank is in `ranks`, column by column, bottom first."""
    return [card for column in position.columns for card in column if rank(card) in ranks]


def foundation_top(position: Position) -> int | None:
    return position.foundation[-1] if position.foundation else None


# --- 1. no move now --------------------------------------------------------------------------

def _no_move_reason(position: Position) -> str | None:
    top = foundation_top(position)
    if position.legal_moves() or top is None:
        return None
    tops = [column[-1] for column in position.columns if column]
    return (
        f"No top card fits the foundation's {card_name(top)}: the top cards are "
        f"{cards_at(position, tops)}, and none is {any_of(neighbours([rank(top)]))}."
    )


# --- 2. cards that can never be played -------------------------------------------------------

def _stranded_reasons(position: Position) -> list[str]:
    """A card is played right after a card one rank away and, unless it is the last card of
    all, right before one. Cards beneath it come after it and cards above it before it, so the
    last card played is a bottom card."""
    top = foundation_top(position)
    playable = {move.card for move in position.legal_moves()}
    by_rank: dict[int, list[int]] = {}
    for column in position.columns:
        for card in column:
            by_rank.setdefault(rank(card), []).append(card)
    found = []
    for c, column in enumerate(position.columns):
        for depth, card in enumerate(column):
            near = neighbours([rank(card)])
            others = [x for r in near for x in by_rank.get(r, [])]

            def only_there(place: str) -> str:
                if not others:
                    return f"no {all_of(near, 'or')} are left"
                listed_others = ", ".join(map(card_name, others))
                return f"all the {all_of(near)} left ({listed_others}) lie {place} it in column {c + 1}"

            if card not in playable and set(others) <= set(column[:depth]):
                text = f"it can only go right after {any_of(near)}, and {only_there('beneath')}"
                if top is not None and rank(top) in near:
                    text += (
                        f"; the foundation's {card_name(top)} is one, but {card_name(card)} is covered, "
                        "so it cannot go on it next"
                    )
            elif depth > 0 and set(others) <= set(column[depth + 1:]):
                text = (
                    f"the card played right after it must be {any_of(near)}, and {only_there('above')}; so it "
                    f"would have to be the last card played, but {card_name(column[0])} lies beneath it"
                )
            else:
                continue
            found.append(f"{at(position, card)} can never be played: {text}.")
    return found


# --- 3. ranks out of reach -------------------------------------------------------------------

def _first_missing(counts: list[int], start: int, step) -> int | None:
    """Walking from `start` with `step`, the first rank with no cards left (None: all have)."""
    r = step(start)
    while r != start:
        if counts[r] == 0:
            return r
        r = step(r)
    return None


def _span(start: int, stop: int, step) -> list[int]:
    """The ranks from the one after `start` up to (without) `stop`, walking with `step`."""
    ranks, r = [], step(start)
    while r != stop:
        ranks.append(r)
        r = step(r)
    return ranks


def _runs(counts: list[int], start: int, stop: int) -> list[list[int]]:
    """The runs of ranks with cards left between `start` and `stop`, walking up."""
    runs: list[list[int]] = [[]]
    for r in _span(start, stop, up):
        if counts[r]:
            runs[-1].append(r)
        else:
            runs.append([])
    return runs


def span_words(ranks: list[int]) -> str:
    """'7s', '7s and 8s', '5s to queens' for a run of ranks listed upwards."""
    if len(ranks) <= 2:
        return all_of(ranks)
    return f"{ranks_word(ranks[0])} to {ranks_word(ranks[-1])}"


def _unreachable_reason(position: Position, counts: list[int], top: int) -> str | None:
    """The walk of ranks passes only ranks with cards left, so from the foundation's rank it
    reaches only the run of ranks up to the first rank without cards on each side. When no cards
    of the foundation's own rank are left, the walk cannot come back to it either: after the
    first card it stays on the side it went to."""
    t = rank(top)
    above, below = _first_missing(counts, t, up), _first_missing(counts, t, down)
    if above is None:
        return None  # every other rank has cards: nothing blocks the walk
    ups, downs = _span(t, above, up), _span(t, below, down)
    with_cards = [r for r in range(1, 14) if counts[r]]
    rule = "the foundation moves one rank up or down at a time (K next to A), and only onto a rank that still has cards"
    if counts[t]:
        cut_off = [r for r in with_cards if r != t and r not in ups + downs]
        if not cut_off:
            return None
        runs = [run for run in _runs(counts, above, below) if run]
        return (
            f"The foundation is on {card_name(top)} and no {all_of(sorted((above, below)), 'or')} "
            f"are left, so the {listed([span_words(run) for run in runs])} can never be reached: {rule}. Out of reach: "
            f"{cards_at(position, cards_of(position, cut_off))}."
        )
    beyond_up = [r for r in with_cards if r not in ups]
    beyond_down = [r for r in with_cards if r not in downs]
    if not (ups or downs) or (ups and not beyond_up) or (downs and not beyond_down):
        return None

    def side(direction: str, run: list[int], beyond: list[int], first: int) -> str:
        if not run:
            return f"it cannot go {direction} at all, as no {ranks_word(first)} are left"
        return (
            f"going {direction} it stays among the {span_words(run if direction == 'up' else run[::-1])}, and "
            f"{cards_at(position, cards_of(position, beyond))} stay out of reach"
        )

    missing = sorted({above, below})
    return (
        f"The foundation is on {card_name(top)} and no {ranks_word(t)} are left, so it can never come "
        f"back to that rank, and no {all_of(missing, 'or')} are left either: {rule}. "
        f"So {side('up', ups, beyond_up, up(t))}; {side('down', downs, beyond_down, down(t))}."
    )


# --- 4. counting neighbours in the order of play ---------------------------------------------

def group(position: Position, counts: list[int], ranks) -> str:
    """'4 sevens and 1 nine (7S (col 1), …)' or 'no 6s or 8s'; ranks without cards left out."""
    present = [r for r in ranks if counts[r]]
    if not present:
        return f"no {all_of(ranks, 'or')}"
    return f"{listed([counted(counts[r], r) for r in present])} ({cards_at(position, cards_of(position, present))})"


@dataclass(frozen=True)
class Shortfall:
    """A set of ranks X whose cards need more neighbour places in the order of play than the
    cards of the ranks N one away from X offer (see `shortfall`)."""

    ranks: tuple[int, ...]  # X: no two one apart
    near: tuple[int, ...]  # N: the ranks one away from X
    n_x: int
    n_n: int
    top_x: bool
    top_n: bool
    last_x: bool  # some bottom card is in X, so the last card played may be
    last_n: bool  # every bottom card is in N, so the last card played is
    need: int
    room: int


def shortfall(counts: list[int], t: int, bottom_mask: int, rank_set: RankSet) -> Shortfall | None:
    """For ranks X no two of which are one apart, and N the ranks one away from X: in the order
    of play (the foundation's top card, then every remaining card) the cards right before and
    after an X card are N cards, and no two X cards are neighbours. So the X cards need two
    neighbour places each, less one for the top card if it is in X (nothing comes before it) and
    one for the last card if it is in X; the N cards offer at most two each, less one for the top
    card and one for the last card if they are in N. The last card played has nothing beneath
    it, so it is a bottom card now (`bottom_mask` has their ranks): take the most favourable.
    Returns the Shortfall when need > room (the position is lost), else None."""
    ranks, near, mask, near_mask = rank_set
    n_x = sum(map(counts.__getitem__, ranks))
    if not n_x:
        return None
    n_n = sum(map(counts.__getitem__, near))
    top_x, top_n = bool(mask >> t & 1), bool(near_mask >> t & 1)
    last_x, last_n = bool(bottom_mask & mask), bottom_mask & ~near_mask == 0
    need = 2 * n_x + top_x - last_x
    room = 2 * n_n + top_n - last_n
    if need <= room:
        return None
    return Shortfall(ranks, near, n_x, n_n, top_x, top_n, last_x, last_n, need, room)


def _count_reason(position: Position, counts: list[int], top: int, gap: Shortfall) -> str:
    """The sentence for a failing count. Where it suffices it uses one half of the argument:
    each X card needs its own card right before it (an N card or the top), or each but the last
    its own card right after it."""
    x_cards = group(position, counts, gap.ranks)
    n_cards = group(position, counts, gap.near)
    head = f"The {all_of(gap.ranks)} cannot all be played: "
    each = listed([str(r) if 1 < r < 11 else RANK_NAMES[r] for r in gap.ranks], "or")
    there = f"There {'is' if gap.n_x == 1 else 'are'} {x_cards} left"
    on_top = f"the foundation's {card_name(top)}"
    bottoms = cards_at(position, [column[0] for column in position.columns if column])
    before = gap.n_n + gap.top_n  # cards that can come right before an X card
    if gap.n_x > before:
        supply = " and ".join([n_cards] * (gap.n_n > 0) + [on_top] * gap.top_n)
        played = f"at most {before} of them can" if before else "it cannot" if gap.n_x == 1 else "none of them can"
        return (
            f"{head}each {each} goes right after {any_of(gap.near)}, and no card has two cards right "
            f"after it. {there} but {f'only {supply}' if supply else n_cards}, so {played} be played."
        )
    if gap.n_x > gap.n_n + gap.last_x:
        start = (
            f"{head}each {each} except the last card played goes right before {any_of(gap.near)}, "
            f"and no card has two cards right before it. {there} but "
            f"{f'only {n_cards}' if gap.n_n else n_cards}, so "
        )
        if gap.n_x > gap.n_n + 1:
            return start + f"at most {gap.n_n + 1} of them can be played."
        return start + (
            f"one of them would have to be the last card played. But the last card played has "
            f"nothing beneath it, and no bottom card ({bottoms}) is {any_of(gap.ranks)}."
        )
    less = [f"less one for {on_top}, as nothing comes before it"] * gap.top_x
    if gap.last_x:
        less.append(f"less one for the last card played if it is {any_of(gap.ranks)}")
    offer = [f"{on_top} only to the card after it"] * gap.top_n
    if gap.last_n:
        offer.append(
            f"and one of them is the last card played, next to one card only: that card has "
            f"nothing beneath it, and every bottom card ({bottoms}) is {any_of(gap.near)}"
        )
    x_word = a_rank(gap.ranks[0]) if len(gap.ranks) == 1 else f"a card of rank {each}"
    sentence = (
        f"{head}in the order of play, starting with the foundation's top card, every card right "
        f"before or right after {x_word} is {any_of(gap.near)}. {there}"
        f"{f' besides {on_top}' if gap.top_x else ''}; they need {gap.need} such neighbour "
        f"places, two each{''.join(', ' + x for x in less)}."
    )
    if not gap.last_x:
        sentence += (
            f" None of them can be the last card played: that card has nothing beneath it, and no "
            f"bottom card ({bottoms}) is {any_of(gap.ranks)}."
        )
    return sentence + (
        f" But there {'is' if gap.n_n == 1 else 'are'} only {n_cards}, each next to at most two "
        f"cards{''.join(', ' + x for x in offer)}: {gap.room} places at most."
    )


def _count_reasons(position: Position, counts: list[int], top: int) -> list[str]:
    """The counting reason for each smallest set of ranks that fails it."""
    bottom_mask = sum({1 << rank(column[0]) for column in position.columns if column})
    failing: list[int] = []
    found = []
    for rank_set in INDEPENDENT_RANKS:
        if any(smaller & rank_set.mask == smaller for smaller in failing):
            continue
        gap = shortfall(counts, rank(top), bottom_mask, rank_set)
        if gap:
            failing.append(rank_set.mask)
            found.append(_count_reason(position, counts, top, gap))
    return found


def reasons(position: Position) -> list[str]:
    """The short reasons found that the position cannot be won, cheapest first: only the first
    when no top card fits now (nothing more needs saying); [] when won or when none is found
    (which does not mean it can be won)."""
    if position.is_won():
        return []
    no_move = _no_move_reason(position)
    if no_move:
        return [no_move]
    found = _stranded_reasons(position)
    top = foundation_top(position)
    if top is not None:
        counts = rank_counts(position)
        cut_off = _unreachable_reason(position, counts, top)
        found += ([cut_off] if cut_off else []) + _count_reasons(position, counts, top)
    return found
