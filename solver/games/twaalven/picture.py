"""Twaalven en veertienen as a picture: the 13 columns, free cards at the bottom of each."""

from __future__ import annotations

from puzzles.cards import card_name
from puzzles.twaalven import Position

from ...pictures import Picture, place, standard_face


def picture(position: Position) -> Picture:
    columns = [[place(standard_face(card_name(card))) for card in column] for column in position.columns]
    mover = f"{position.to_move} to move" if position.to_move else "T or F may start"
    return Picture(f"Twaalven en veertienen: {position.remaining} cards, {mover}").columns("columns", columns)
