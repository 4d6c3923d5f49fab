"""Stapelen as a picture: the 13 columns, then each player's three foundations (their tops). A
fresh deal's title says that either player may start, as the players choose."""

from __future__ import annotations

from puzzles.cards import card_name
from puzzles.stapelen import PLAYERS, Position, is_fresh
from puzzles.text import amount

from ...pictures import Picture, place, standard_face


def picture(position: Position) -> Picture:
    mover = "A or B may start" if is_fresh(position) else f"{position.to_move} to move"
    drawn = Picture(f"Stapelen: {mover}")
    drawn.columns("columns", [[place(standard_face(card_name(c))) for c in column] for column in position.columns])
    for player in PLAYERS:
        piles = position.foundations_of(player)
        drawn.row(f"{player}'s foundations", [
            place(standard_face(card_name(pile[-1])), amount(len(pile), "card")) if pile else place(None, "empty")
            for pile in piles])
    return drawn
