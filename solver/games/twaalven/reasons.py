"""Why a Twaalven en veertienen deal or position cannot be won, in words a person can check.

The short reasons, cheapest first: (a) the player to move has no still-needed pair now; (b) a pair type still needed cannot be formed often enough
from different columns; (c) a card has no partner outside its own column; (d) the last turn,
which takes two bottom cards, has no pair to take; (e) a cycle of cards that must each be taken
before the next. All but (a) need the counting invariant (how many pairs of each type are still
to take, `pairs.required_pairs`); a position it refutes has no count a player could check ("take
3-9 -1 times"), so it gets no short reason. When none applies, `explain` falls back to a CP-SAT
unsat core: a small set of cards no line of play takes all of.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzles.cards import card_name, rank
from puzzles.twaalven import PAIRS, PLAYERS, Position, other

from ...words import (
    a_rank, amount, at, cards_at, column_of, column_order, rank_word, ranks_word, times_word, waiting_circle,
)
from .pairs import Type, required_pairs

if TYPE_CHECKING:
    import networkx as nx

OWNER: dict[Type, str] = {t: player for player in PLAYERS for t in PAIRS[player]}
SUM_WORDS = {"T": "12 (or Q+K)", "F": "14"}


# --- words -----------------------------------------------------------------------------------

def type_name(t: Type) -> str:
    return f"{rank_word(t[0])}-{rank_word(t[1])}"


# --- the short reasons -----------------------------------------------------------------------

def _partners(position: Position, card: int, need: dict[Type, int]) -> list[tuple[int, Type]]:
    """(partner card, pair type) for every remaining card that makes a still-needed pair with
    `card`, in any column."""
    result = []
    for column in position.columns:
        for other_card in column:
            t = tuple(sorted((rank(card), rank(other_card))))
            if other_card != card and need.get(t, 0) > 0:
                result.append((other_card, t))
    return result


def _cross_column_reasons(position: Position, need: dict[Type, int]) -> list[str]:
    """(b) A needed type of which fewer disjoint pairs from different columns exist than needed."""
    import networkx as nx  # here, not at the top: most commands never need its third of a second

    col = column_of(position)
    found = []
    for t, k in need.items():
        if k == 0:
            continue
        cards = [c for c in col if rank(c) in t]
        graph = nx.Graph()
        graph.add_edges_from(
            (a, b) for i, a in enumerate(cards) for b in cards[i + 1:]
            if col[a] != col[b] and tuple(sorted((rank(a), rank(b)))) == t
        )
        most = len(nx.max_weight_matching(graph, maxcardinality=True))
        if most >= k:
            continue
        player, name = OWNER[t], type_name(t)
        which = ranks_word(t[0]) if t[0] == t[1] else f"{ranks_word(t[0])} and {ranks_word(t[1])}"
        columns = {col[c] for c in cards}
        if len(columns) == 1:
            found.append(
                f"The {which} left ({', '.join(card_name(c) for c in cards)}) all lie in column "
                f"{columns.pop() + 1}, so {player}'s pair {name} can never be taken, "
                f"and {player} must still take it {times_word(k)}."
            )
        else:
            found.append(
                f"{player} must still take {name} {times_word(k)}, but the {which} left "
                f"({cards_at(position, cards)}) make only {amount(most, 'such pair')} "
                "from different columns without sharing a card."
            )
    return found


def _lonely_card_reasons(position: Position, need: dict[Type, int]) -> list[str]:
    """(c) A card all of whose possible partners lie in its own column (or are gone)."""
    col = column_of(position)
    found = []
    for card in col:
        partners = [p for p, _ in _partners(position, card, need)]
        if any(col[p] != col[card] for p in partners):
            continue
        r = rank(card)
        wanted = [f"{a_rank(t[0] + t[1] - r)} ({OWNER[t]}'s {type_name(t)})" for t in OWNER if r in t and need[t]]
        spent = " and ".join(f"{OWNER[t]}'s {type_name(t)}" for t in OWNER if r in t and not need[t])
        if not wanted:
            text = f"the counting invariant has used up every pair it could make ({spent})"
        else:
            text = f"it pairs only with {' or '.join(wanted)}"
            if spent:
                text += f", as {spent} {'are' if ' and ' in spent else 'is'} used up by the counting invariant"
            if partners:
                listed = ", ".join(card_name(p) for p in partners)
                text += f", and every such card left ({listed}) lies in column {col[card] + 1} too"
            else:
                text += ", and none is left"
        found.append(f"{at(position, card)} can never be taken: {text}.")
    return found


def _next_turn_reason(position: Position, to_move: str, need: dict[Type, int]) -> str | None:
    """The player to move has no pair now, or only pairs of types the counting has used up."""
    moves = position.start(to_move).legal_moves()
    if any(need[tuple(sorted(rank(c) for c in m.cards))] > 0 for m in moves):
        return None
    tops = cards_at(position, [card for _, card in position.tops()])
    if not moves:
        return f"{to_move} is to move and has no pair: no two of the top cards ({tops}) make {SUM_WORDS[to_move]}."
    listed = "; ".join(f"{at(position, a)} + {at(position, b)}" for a, b in (m.cards for m in moves))
    used = sorted({type_name(tuple(sorted(rank(c) for c in m.cards))) for m in moves})
    return (
        f"{to_move} is to move, and its only pairs ({listed}) are {' or '.join(used)}, "
        f"but the counting invariant leaves {to_move} none of them to take."
    )


def _last_turn_reason(position: Position, to_move: str, need: dict[Type, int]) -> str | None:
    """(d) The last turn takes the final two cards, bottom cards of two columns: they must make
    a still-needed pair of the player whose turn it is (the kernel's `is_dead`)."""
    turns = position.remaining // 2
    if turns == 0:
        return None
    last = to_move if turns % 2 else other(to_move)
    bottoms = [column[0] for column in position.columns if column]
    pairs = [
        (a, b, t) for i, a in enumerate(bottoms) for b in bottoms[i + 1:]
        if (t := tuple(sorted((rank(a), rank(b))))) in PAIRS[last]
    ]
    if any(need[t] > 0 for _, _, t in pairs):
        return None
    if position.remaining == 52:
        who = f"{to_move} starts, so {last} plays the 26th and last turn"
    elif turns == 1:
        who = f"{last} is to move and this is the last turn"
    else:
        who = f"{to_move} is to move with {turns} turns left, so {last} plays the last one"
    if len(bottoms) < 2:
        return f"{who}; it must take the last two cards, but both lie in column {column_of(position)[bottoms[0]] + 1}."
    text = (
        f"{who}; it takes the last two cards, bottom cards of two columns: "
        f"{cards_at(position, bottoms)}; no two of them make {SUM_WORDS[last]}"
    )
    if pairs:
        used = sorted({type_name(t) for _, _, t in pairs})
        text += f" except as {' or '.join(used)}, but the counting invariant leaves {last} none of them to take"
    return text + "."


def _waits_for(position: Position, need: dict[Type, int]) -> nx.DiGraph:
    """Edges u -> v: u must be taken strictly before v. A card above v in its column comes
    first; and if v's possible partners outside its column all lie in one column B, whichever
    one is used lies at or below the topmost, so every card above that one comes first."""
    col = column_of(position)
    graph = column_order(position)
    for card in col:
        outside = [(p, t) for p, t in _partners(position, card, need) if col[p] != col[card]]
        columns = {col[p] for p, _ in outside}
        if len(columns) != 1:
            continue
        b = columns.pop()
        column = position.columns[b]
        top = max(column.index(p) for p, _ in outside)
        if top < len(column) - 1:
            partners = [p for p, _ in outside]
            graph.add_edge(column[top + 1], card, why=("partner", b, column[top], partners))
    return graph


def _cycle_reason(position: Position, need: dict[Type, int]) -> str | None:
    """(e) The shortest cycle of must-come-before edges, told as who waits for whom."""
    circle = waiting_circle(_waits_for(position, need))
    if circle is None:
        return None
    steps = []
    for before, after, why in circle:
        if why[0] == "column":
            steps.append(f"{at(position, after)} lies beneath {card_name(before)}")
        else:
            _, b, topmost, partners = why
            if len(partners) == 1:
                partner = f"{at(position, topmost)}, which"
            else:
                options = " or ".join(a_rank(r) for r in sorted({rank(p) for p in partners}))
                partner = f"{options} from column {b + 1}, the highest of which, {card_name(topmost)},"
            steps.append(f"{at(position, after)} can only be taken with {partner} lies beneath {card_name(before)}")
    return (
        "These cards wait for each other in a circle: " + "; ".join(steps)
        + "; so none of them can be taken first."
    )


def _reasons_with_mover(position: Position) -> list[str]:
    to_move = position.to_move
    if position.remaining == 0:
        return []
    need = required_pairs(position, to_move)
    if need is None:
        # Lost by counting alone, but the equations' verdict ("take 3-9 -1 times") is not a
        # reason a player can check: explain gives the CP-SAT core instead.
        return []
    now = _next_turn_reason(position, to_move, need)
    found = _cross_column_reasons(position, need) + _lonely_card_reasons(position, need)
    last = _last_turn_reason(position, to_move, need)
    cycle = _cycle_reason(position, need)
    return [text for text in (now, *found, last, cycle) if text]


def reasons(position: Position) -> list[str]:
    """Every short reason found that the position cannot be won. For a deal: the reasons that
    hold whoever starts; when each starter has reasons but none is shared, one reason that
    covers both cases."""
    if position.to_move is not None:
        return _reasons_with_mover(position)
    by_starter = {p: _reasons_with_mover(position.start(p)) for p in PLAYERS}
    common = [text for text in by_starter["T"] if text in by_starter["F"]]
    if common or not all(by_starter.values()):
        return common
    return ["Lost whoever starts. " + " ".join(found[0] for found in by_starter.values())]
