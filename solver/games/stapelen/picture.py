"""Stapelen as a picture: the 13 columns, then each player's three foundations (their tops). A
fresh deal's title says that either player may start, as the players choose."""

from __future__ import annotations

from puzzles.cards import card_name
from puzzles.stapelen import PLAYERS, Position, is_fresh

from ...pictures import Picture, pile_top, place, standard_face


def picture(position: Position) -> Picture:
    mover = "A or B may start" if is_fresh(position) else f"{position.to_move} to move"
    drawn = Picture(f"Stapelen: {mover}")
    drawn.columns("columns", [[place(standard_face(card_name(c))) for c in column] for column in position.columns])
    for player in PLAYERS:
        drawn.row(f"{player}'s foundations", [pile_top(pile) for pile in position.foundations_of(player)])
    return drawn
