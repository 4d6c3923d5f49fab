"""All in a Row and Black Hole as pictures: the columns, then the foundation's top."""

from __future__ import annotations

from puzzles.cards import card_name
from puzzles.one_foundation import Position

from ...pictures import Picture, pile_top, place, standard_face


def picture(position: Position, title: str) -> Picture:
    drawn = Picture(f"{title}: {sum(map(len, position.columns))} cards in the columns")
    drawn.columns("columns", [[place(standard_face(card_name(c))) for c in column] for column in position.columns])
    return drawn.row("foundation", [pile_top(position.foundation)])
