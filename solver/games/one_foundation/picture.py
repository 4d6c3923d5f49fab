"""All in a Row and Black Hole as pictures: the columns, then the foundation's top."""

from __future__ import annotations

from puzzles.cards import card_name
from puzzles.one_foundation import Position
from puzzles.text import amount

from ...pictures import Picture, place, standard_face


def picture(position: Position, title: str) -> Picture:
    drawn = Picture(f"{title}: {sum(map(len, position.columns))} cards in the columns")
    drawn.columns("columns", [[place(standard_face(card_name(c))) for c in column] for column in position.columns])
    pile = position.foundation
    top = place(standard_face(card_name(pile[-1])), amount(len(pile), "card")) if pile else place(None, "empty")
    return drawn.row("foundation", [top])
