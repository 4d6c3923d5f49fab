"""Words for explanations, shared by every game: ranks ("an ace", "5s"), cards with their
columns ("QC (col 1)", "6S (col 3, 2nd from bottom)") and counts of what a tableau holds; and
the circle of cards that wait for each other, which the column games' reasons tell."""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzles.cards import card_name, rank
from puzzles.text import amount  # noqa: F401  (counts are words of explanations too)

if TYPE_CHECKING:  # networkx is imported where a graph is made: a third of a second most commands never need
    import networkx as nx

#: What explain says of a search of the fewest cards left or the most played that the budget
#: stopped before any line ended the game (The Game, Extreme, Quick & Easy): there is no line to tell.
NO_LINE_FOUND = "no line was found within the budget: the search stopped before any line ended the game"


def bound_proof(optimal: bool, method: str) -> str:
    """What proved the bound of a search of the fewest cards left or the most played: the rules
    when the game was over before any move (method 'rules': nothing was searched), else the
    exhaustive search, or nothing yet ('proven so far') when it was stopped."""
    if method == "rules":
        return "the game is already over here"
    return "the exhaustive search proved it" if optimal else "proven so far"

_FACES = {1: ("A", "ace"), 11: ("J", "jack"), 12: ("Q", "queen"), 13: ("K", "king")}


def rank_word(r: int) -> str:
    return _FACES[r][0] if r in _FACES else str(r)


def a_rank(r: int) -> str:
    """'a 5', 'an 8', 'an ace'."""
    word = _FACES[r][1] if r in _FACES else str(r)
    return ("an " if word[0] in "a8" else "a ") + word


def ranks_word(r: int) -> str:
    """'5s', 'aces'."""
    return _FACES[r][1] + "s" if r in _FACES else f"{r}s"


def listed(words: list[str], joiner: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {joiner} " + words[-1]


def times_word(n) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def column_of(position) -> dict[int, int]:
    return {card: col for col, column in enumerate(position.columns) for card in column}


def at(position, card: int) -> str:
    """'QC (col 1)'."""
    return f"{card_name(card)} (col {column_of(position)[card] + 1})"


def where(position, card: int) -> str:
    """'6S (col 3, 2nd from bottom)'."""
    col = column_of(position)[card]
    column = position.columns[col]
    depth = column.index(card)
    if len(column) == 1:
        place = "alone"
    elif depth == len(column) - 1:
        place = "top"
    elif depth == 0:
        place = "bottom"
    else:
        place = f"{('2nd', '3rd')[depth - 1]} from bottom"
    return f"{card_name(card)} (col {col + 1}, {place})"


def cards_at(position, cards) -> str:
    """'QC (col 1), AS (col 2)'."""
    return ", ".join(at(position, c) for c in cards)


def rank_counts(position) -> list[int]:
    """counts[r]: remaining cards of rank r (index 0 unused)."""
    counts = [0] * 14
    for column in position.columns:
        for card in column:
            counts[rank(card)] += 1
    return counts


def core_sentence(position, core: list[int], minimal: bool, verb: str, participle: str, name=None) -> str:
    """An unsat core in words: no line of play `verb`s ("takes", "places") all these cards;
    `participle` ("taken", "placed") says what the rest could be without any one of them.
    `name(position, card)` says where a card is (default: its column, `where`)."""
    named = ", ".join((name or where)(position, c) for c in core)
    if len(core) == 1:
        return f"A win {verb} every card, but no line of play {verb} {named}; CP-SAT proves it."
    how = (
        f"a minimal set: without any one of them, the others can all be {participle} in one line"
        if minimal else "not shrunk to a minimal set within the time"
    )
    return (
        f"A win {verb} every card, but no line of play {verb} all of these {len(core)} cards: "
        f"{named}; CP-SAT proves it ({how})."
    )


def column_order(position) -> nx.DiGraph:
    """The must-come-before graph of a tableau's own order: an edge from each card to the card
    beneath it (`why` ("column", c)): a card is taken before the cards it covers. A game's
    reasons add the edges its rules force."""
    import networkx as nx

    graph = nx.DiGraph()
    for c, column in enumerate(position.columns):
        for lower, upper in zip(column, column[1:]):
            graph.add_edge(upper, lower, why=("column", c))
    return graph


def waiting_circle(graph: nx.DiGraph) -> list[tuple[int, int, tuple]] | None:
    """The shortest cycle of a must-come-before graph (an edge u -> v: u comes before v), as
    (before, after, why) steps told backwards from the end, so that each step's card waits for
    the next one's; None when there is no cycle. A cycle proves that none of its cards can go first."""
    import networkx as nx

    if nx.is_directed_acyclic_graph(graph):
        return None
    for bound in range(2, graph.number_of_nodes() + 1):
        cycle = next(nx.simple_cycles(graph, length_bound=bound), None)
        if cycle:
            break
    steps = []
    for i in range(len(cycle), 0, -1):
        before, after = cycle[i - 1], cycle[i % len(cycle)]
        steps.append((before, after, graph.edges[before, after]["why"]))
    return steps
