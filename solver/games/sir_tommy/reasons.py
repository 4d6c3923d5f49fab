"""Why a Sir Tommy voor twee position cannot be won, as short reasons each a proof on its own:

- stock and hand empty and no row top fits a foundation of either player;
- a card y that neither player can ever take, because for each player either no foundation
  can reach y's rank any more, or every foundation that could must first take a card of some
  rank s and every card of rank s still off the foundations lies beneath y in y's row (so it
  can only be played after y). With a full deck "no foundation can reach" never holds while
  a card of that rank is left (4 foundations, 4 cards a rank), so the buried cards carry it.
"""

from __future__ import annotations

from puzzles import sir_tommy as rules
from puzzles.cards import card_name, rank
from puzzles.sir_tommy import PLAYERS, Position

from ...words import a_rank


def tops(position: Position, player: str) -> list[int]:
    """The ranks on top of `player`'s foundations (0 = empty)."""
    return [rank(pile[-1]) if pile else 0 for pile in position.foundations_of(player)]


def where(position: Position, card: int) -> str:
    """Where a card is: '8H (row 2, top)', '3C (row 1, 2 beneath the top)', 'QS (drawn this
    turn, by U)', '5C (stock, drawn 4 turns after this one)'. A turn starts with its draw, so
    the turn in progress, a fresh deal's included, has drawn its cards already."""
    for number, row in enumerate(position.rows, start=1):
        if card in row:
            depth = row.index(card)
            place = "top" if depth == len(row) - 1 else f"{len(row) - 1 - depth} beneath the top"
            return f"{card_name(card)} (row {number}, {place})"
    if card in position.hand:
        return f"{card_name(card)} (drawn this turn, by {position.to_move})"
    turns = 1 + position.stock.index(card) // rules.DRAW
    return f"{card_name(card)} (stock, drawn {turns} turn{'s' if turns > 1 else ''} after this one)"


def off_foundations(position: Position) -> list[int]:
    return list(position.stock) + list(position.hand) + [c for row in position.rows for c in row]


def route_blocked(position: Position, player: str, y: int, beneath: list[int], remaining: list[int]) -> str | None:
    """Why `player` can never take card `y`, whose row holds `beneath` under it; None if they
    might. Ranks between a foundation's top and y's rank must all come first."""
    t = rank(y)
    piles = tops(position, player)
    if player == "U":
        open_tops = [p for p in piles if p < t]
        steps = range(max(open_tops, default=t) + 1, t)
    else:
        open_tops = [p or position.top_rank + 1 for p in piles if p == 0 or p > t]
        steps = range(t + 1, min(open_tops, default=t))
    if not open_tops:
        return f"every {player} foundation is past {a_rank(t)}"
    for s in steps:
        left = [c for c in remaining if rank(c) == s]
        if left and all(c in beneath for c in left):
            return (f"every {player} foundation must take {a_rank(s)} before it, and "
                    f"{'all of ' if len(left) > 1 else ''}{' '.join(card_name(c) for c in left)} lie{'' if len(left) > 1 else 's'} beneath it")
    return None


def reasons(position: Position) -> list[str]:
    """Sentences that each prove the position lost (possibly none)."""
    if position.is_won():
        return []
    found = []
    if position.is_lost():
        found.append("The stock is empty and no row top fits a foundation of either player.")
    remaining = off_foundations(position)
    for number, row in enumerate(position.rows, start=1):
        for depth, y in enumerate(row):
            why = [route_blocked(position, player, y, list(row[:depth]), remaining) for player in PLAYERS]
            if all(why):
                found.append(f"{card_name(y)} in row {number} can never be played: for U {why[0]}; for D {why[1]}.")
    return found
