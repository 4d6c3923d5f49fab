"""Sir Tommy as a picture: the drawn cards, the rows (each down to its top), both players'
foundations (their tops) and the stock's count."""

from __future__ import annotations

from puzzles.cards import card_name
from puzzles.sir_tommy import PLAYERS, Position
from puzzles.text import amount

from ...pictures import Picture, pile_top, place, standard_face


def picture(position: Position) -> Picture:
    drawn = Picture(f"Sir Tommy voor twee: {position.to_move} to move")
    drawn.row("drawn", [place(standard_face(card_name(c))) for c in position.hand] or [place(None, "none")])
    drawn.columns("rows", [[place(standard_face(card_name(c))) for c in row] for row in position.rows])
    for player in PLAYERS:
        drawn.row(f"{player}'s foundations", [pile_top(pile) for pile in position.foundations_of(player)])
    return drawn.note(f"stock: {amount(len(position.stock), 'card')}" + (f", next {card_name(position.stock[0])}" if position.stock else ""))
