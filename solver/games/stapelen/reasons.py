"""Why a Stapelen position cannot be won, in words a person can check.

The short reasons, cheapest first, each of which on its own proves the position lost:
(a) the player to move has no legal card;
(b) the other player will have none at their next turn: no empty foundation, and every card
    of a rank their foundations take is covered too deeply for the mover's one card to free it;
(c) too few predecessors: every card needs its own card one rank lower beneath it on a
    foundation (a top, or a card placed earlier) unless it starts an empty foundation, so the
    cards of a rank cannot outnumber the lower cards that can lie under them plus the empty
    foundations;
(d) with no empty foundation, a cycle of cards that must each be placed before the next.
When none applies, `explain` falls back to a CP-SAT unsat core: a small set of cards no line
of play places all of.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzles.cards import card_name, rank
from puzzles.stapelen import PLAYERS, Position, other, previous_rank

from ...words import a_rank, at, cards_at, column_of, column_order, ranks_word, waiting_circle

if TYPE_CHECKING:
    import networkx as nx


# --- words -----------------------------------------------------------------------------------

def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _foundations(position: Position, player: str) -> str:
    """'A1 on 5S, A2 on 9H, A3 empty'."""
    return ", ".join(
        f"{player}{f + 1} on {card_name(pile[-1])}" if pile else f"{player}{f + 1} empty"
        for f, pile in enumerate(position.foundations_of(player))
    )


def _noun(r: int) -> str:
    """'6', '8', 'ace'."""
    return a_rank(r).split(" ", 1)[1]


def _takes(ranks: set[int]) -> str:
    """'a 6, a 10 or an ace'."""
    return _or([a_rank(r) for r in sorted(ranks)])


def _empty_foundations(position: Position) -> list[str]:
    return [f"{p}{f + 1}" for p in PLAYERS for f, pile in enumerate(position.foundations_of(p)) if not pile]


def _wanted_ranks(position: Position, player: str) -> set[int] | None:
    """The ranks `player`'s foundations take now; None when one is empty (it takes any)."""
    piles = position.foundations_of(player)
    if any(not pile for pile in piles):
        return None
    return {rank(pile[-1]) % 13 + 1 for pile in piles}


def _covered(position: Position, card: int) -> list[int]:
    """The cards lying on `card` in its column, nearest first."""
    column = position.columns[column_of(position)[card]]
    return list(reversed(column[column.index(card) + 1:]))


# --- (a), (b): no legal card at the next turn ------------------------------------------------

def _no_move_reason(position: Position) -> str | None:
    """(a) The player to move has no legal card (and cards remain)."""
    if position.remaining == 0 or position.legal_moves():
        return None
    player = position.to_move
    tops = cards_at(position, [column[-1] for column in position.columns if column])
    return (
        f"{player} is to move and has no legal card: {player}'s foundations "
        f"({_foundations(position, player)}) take only {_takes(_wanted_ranks(position, player))}, "
        f"and no top card ({tops}) is one."
    )


def _next_turn_reason(position: Position) -> str | None:
    """(b) The player after the mover has no empty foundation, and every card of a rank their
    foundations take lies under two or more cards, or under one that the mover cannot play:
    the mover's one card uncovers at most one card, so that player then has no legal card."""
    mover, waiting = position.to_move, other(position.to_move)
    wanted = _wanted_ranks(position, waiting)
    if position.remaining < 2 or wanted is None:
        return None
    mover_takes = _wanted_ranks(position, mover)
    candidates = [c for column in position.columns for c in column if rank(c) in wanted]
    why, mover_blocked = [], False
    for card in candidates:
        cover = _covered(position, card)
        if not cover:
            return None
        if len(cover) == 1:
            if mover_takes is None or rank(cover[0]) in mover_takes:
                return None
            why.append(f"{at(position, card)} under {card_name(cover[0])}, which {mover} cannot play")
            mover_blocked = True
        else:
            why.append(f"{at(position, card)} under {len(cover)} cards")
    start = (
        f"{waiting} moves after {mover} and has no empty foundation: {waiting}'s foundations "
        f"({_foundations(position, waiting)}) take only {_takes(wanted)}"
    )
    if not candidates:
        return f"{start}, and no such card is left, so {waiting} can never move again."
    text = f"{start}. Every such card left is covered: {'; '.join(why)}"
    if mover_blocked:
        text += f" ({mover}'s foundations, {_foundations(position, mover)}, take only {_takes(mover_takes)})"
    return (
        f"{text}. {mover}'s one card in between uncovers at most one card, so {waiting} will have "
        "no legal card."
    )


# --- (c): too few predecessors ---------------------------------------------------------------

def _lies_beneath(position: Position, lower: int, upper: int) -> bool:
    """Whether `lower` lies under `upper` in one column (and so is placed after it)."""
    col = column_of(position)
    if col[lower] != col[upper]:
        return False
    column = position.columns[col[lower]]
    return column.index(lower) < column.index(upper)


def _lower_beneath(position: Position, card: int) -> list[int]:
    """The cards one rank lower than `card` that lie beneath it in its column."""
    below = previous_rank(rank(card))
    column = position.columns[column_of(position)[card]]
    return [c for c in column if rank(c) == below and _lies_beneath(position, c, card)]


def _tops(position: Position) -> list[tuple[str, int]]:
    """(foundation name, top card) of every non-empty foundation."""
    return [(f"{p}{f + 1}", pile[-1]) for p in PLAYERS for f, pile in enumerate(position.foundations_of(p)) if pile]


def _slots(position: Position, card: int) -> list[tuple[str, object]]:
    """What `card` could lie on, apart from an empty foundation: ("top", foundation) for each
    foundation top one rank lower, ("card", c) for each remaining card c one rank lower that is
    not beneath it (one beneath it is placed later, so never under it)."""
    below = previous_rank(rank(card))
    found = [("top", name) for name, top in _tops(position) if rank(top) == below]
    found += [("card", c) for column in position.columns for c in column
              if rank(c) == below and not _lies_beneath(position, c, card)]
    return found


def _max_matching(options: dict[int, list]) -> int:
    """The most cards that get pairwise different options (augmenting paths; tiny graphs)."""
    owner: dict = {}

    def augment(card: int, seen: set) -> bool:
        for option in options[card]:
            if option in seen:
                continue
            seen.add(option)
            if option not in owner or augment(owner[option], seen):
                owner[option] = card
                return True
        return False

    return sum(augment(card, set()) for card in options)


def _slot_words(position: Position, slot: tuple[str, object]) -> str:
    kind, what = slot
    if kind == "top":
        top = dict(_tops(position))[what]
        return f"{card_name(top)} (top of {what})"
    return at(position, what)


def _rank_shortfalls(position: Position) -> list[tuple[int, list[int], int, dict[int, list]]]:
    """(rank, its remaining cards, the most that can get their own predecessor, options) for
    every rank whose cards cannot all get one."""
    found = []
    for r in range(1, 14):
        cards = [c for column in position.columns for c in column if rank(c) == r]
        if not cards:
            continue
        options = {c: _slots(position, c) for c in cards}
        most = _max_matching(options)
        if most < len(cards):
            found.append((r, cards, most, options))
    return found


def _options_words(position: Position, card: int, slots: list) -> str:
    """'only on 6C (top of A2) or 6D (col 5)' or 'on nothing', noting lower cards beneath it."""
    text = "only on " + _or([_slot_words(position, s) for s in slots]) if slots else "on nothing"
    beneath = _lower_beneath(position, card)
    if beneath:
        text += f" ({', '.join(card_name(c) for c in beneath)} beneath it)"
    return text


def _shortfall_words(position: Position, r: int, cards: list[int], most: int, options: dict[int, list]) -> str:
    below = previous_rank(r)
    if len(cards) == 1:
        (card,) = cards
        where_to = _options_words(position, card, options[card])
        return f"{at(position, card)} needs {a_rank(below)} to lie on, and can lie {where_to}"
    each = "; ".join(f"{at(position, c)} {_options_words(position, c, options[c])}" for c in cards)
    return (
        f"the {ranks_word(r)} left each need their own {_noun(below)} to lie on, "
        f"and at most {most} of the {len(cards)} can have one: {each}"
    )


def _hopeless_card(position: Position, card: int) -> str:
    """Why a card with nothing to lie on (and no empty foundation) can never be placed."""
    below = previous_rank(rank(card))
    beneath = _lower_beneath(position, card)
    column = column_of(position)[card] + 1
    if not beneath:
        rest = f"no {_noun(below)} is left"
    elif len(beneath) == 1:
        rest = f"the only {_noun(below)} left, {card_name(beneath[0])}, lies beneath it in column {column}"
    else:
        listed = ", ".join(card_name(c) for c in beneath)
        rest = f"every {_noun(below)} left ({listed}) lies beneath it in column {column}"
    return (
        f"{at(position, card)} can never be placed: it must lie on {a_rank(below)}, but no foundation "
        f"shows one, none is empty, and {rest}."
    )


def _predecessor_reasons(position: Position) -> list[str]:
    """(c) Cards that can never be placed for want of a card one rank lower, counted against
    the empty foundations (each can start one card)."""
    shortfalls = _rank_shortfalls(position)
    empty = _empty_foundations(position)
    short = sum(len(cards) - most for _, cards, most, _ in shortfalls)
    if short <= len(empty):
        return []
    if not empty:
        found = []
        for r, cards, most, options in shortfalls:
            hopeless = [card for card in cards if not options[card]]
            found += [_hopeless_card(position, card) for card in hopeless]
            if not hopeless:
                words = _shortfall_words(position, r, cards, most, options)
                found.append(f"Not every {_noun(r)} can be placed, as no foundation is empty: {words}.")
        return found
    parts = [_shortfall_words(position, r, cards, most, options) for r, cards, most, options in shortfalls]
    return [
        f"{short} cards would have to start an empty foundation, but only {len(empty)} "
        f"{'is' if len(empty) == 1 else 'are'} empty ({', '.join(empty)}): " + "; ".join(parts) + "."
    ]


# --- (d): cards waiting for each other -------------------------------------------------------

def _waits_for(position: Position) -> nx.DiGraph:
    """Edges u -> v: u must be placed before v. A card above v in its column comes first; and
    when no foundation shows a card one rank below v (and none is empty), v lies on a card
    placed earlier; if all candidates lie in one other column B, the one used lies at or below
    the highest of them, so every card above that one comes first."""
    col = column_of(position)
    graph = column_order(position)
    for card in col:
        slots = _slots(position, card)
        if not slots or any(kind == "top" for kind, _ in slots):
            continue
        columns = {col[c] for _, c in slots}
        if len(columns) != 1 or col[card] in columns:
            continue
        b = columns.pop()
        column = position.columns[b]
        highest = max(column.index(c) for _, c in slots)
        if highest < len(column) - 1:
            graph.add_edge(column[highest + 1], card, why=("below", b, column[highest], [c for _, c in slots]))
    return graph


def _cycle_reason(position: Position) -> str | None:
    """(d) The shortest cycle of must-come-before edges, told as who waits for whom."""
    if _empty_foundations(position):
        return None
    circle = waiting_circle(_waits_for(position))
    if circle is None:
        return None
    steps = []
    for first, then, why in circle:
        if why[0] == "column":
            steps.append(f"{at(position, then)} lies beneath {card_name(first)}")
        else:
            _, b, highest, candidates = why
            if len(candidates) == 1:
                lower = f"{at(position, highest)}, which"
            else:
                lower = (f"{a_rank(previous_rank(rank(then)))} from column {b + 1}, the highest of which, "
                         f"{card_name(highest)},")
            steps.append(f"{at(position, then)} can only lie on {lower} lies beneath {card_name(first)}")
    return (
        "No foundation is empty, and these cards wait for each other in a circle: " + "; ".join(steps)
        + "; so none of them can be placed first."
    )


# --- all reasons ------------------------------------------------------------------------------

def reasons(position: Position) -> list[str]:
    """Every short reason found that the position cannot be won, cheapest first."""
    if position.remaining == 0:
        return []
    now = _no_move_reason(position)
    if now:
        return [now]
    found = [_next_turn_reason(position), *_predecessor_reasons(position), _cycle_reason(position)]
    return [text for text in found if text]
